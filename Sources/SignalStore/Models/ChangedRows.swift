/// The rows a batch of journal entries changed, and its last seq: built before the registry's
/// lock is taken, so a large commit holds it only to look up its live objects. A batch of one
/// row (a model's set) keeps it as it is, without a set to allocate and hash.
struct ChangedRows: Sendable {
    let lastSeq: Int64
    /// The number of rows.
    let count: Int
    /// The one row's table and rowid, when `count` is 1 (kept apart, not as an optional key:
    /// copying and destroying an optional of a struct costs more than its two fields).
    private let singleTable: String
    private let singleRowID: Int64
    /// The rows, when `count` is more than 1.
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
        singleTable = rows.isEmpty ? first?.table ?? "" : ""
        singleRowID = rows.isEmpty ? first?.rowID ?? 0 : 0
        count = rows.isEmpty ? (first == nil ? 0 : 1) : rows.count
        self.rows = rows
    }

    /// Whether the batch changed `row`.
    func contains(_ row: ModelRegistry.RowKey) -> Bool {
        switch count {
        case 0: false
        case 1: row.rowID == singleRowID && row.table.hasSameUTF8(as: singleTable)
        default: rows.contains(row)
        }
    }
}
