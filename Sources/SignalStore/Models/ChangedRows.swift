/// The rows a batch of journal entries changed, and its last seq: built before the registry's
/// lock is taken, so a large commit holds it only to look up its live objects. A batch of one
/// row (a model's set) keeps it as it is, without a set to allocate and hash.
struct ChangedRows: Sendable {
    let lastSeq: Int64
    private let single: ModelRegistry.RowKey?
    private let rows: Set<ModelRegistry.RowKey>

    init(_ changes: [Change]) {
        lastSeq = changes.last?.seq ?? 0
        var rows = Set<ModelRegistry.RowKey>()
        var first: ModelRegistry.RowKey?
        var previous: ModelRegistry.RowKey?
        for change in changes {
            let key = ModelRegistry.RowKey(table: change.table, rowID: change.rowID)
            // A transaction often changes one row several times in a row: compared, not hashed.
            if key != previous {
                if first == nil {
                    first = key
                } else {
                    if rows.isEmpty, let first { rows.insert(first) }
                    rows.insert(key)
                }
            }
            previous = key
        }
        single = rows.isEmpty ? first : nil
        self.rows = rows
        count = rows.isEmpty ? (first == nil ? 0 : 1) : rows.count
    }

    /// The number of rows (stored: asking an optional key whether it is there copies it).
    let count: Int

    /// Whether the batch changed `row`.
    func contains(_ row: ModelRegistry.RowKey) -> Bool {
        if let single { return single == row }
        return rows.contains(row)
    }
}
