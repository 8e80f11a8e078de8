/// What a batch's entries did to a table's rows, as a live result or aggregate needs it: which
/// rows must be read again, which are gone, and which changed only in columns the query does
/// not read.
struct BatchRows {
    /// Every row an entry named, and the rowid a row moved to.
    private(set) var changed = Set<Int64>()
    /// Inserted rows, rows whose read columns changed, and rows that moved.
    private(set) var read = Set<Int64>()
    /// Deleted rows (some may be in `read`, inserted again after).
    private(set) var gone = Set<Int64>()
    /// Rows with an update of a column the query does not read.
    private(set) var valueOnly = Set<Int64>()

    /// - Parameters:
    ///   - stableColumns: The model's columns other than its primary key, lowercased: an update
    ///     of any other column may move the row to another rowid.
    ///   - dependencies: The columns the query reads, lowercased; `nil`: unknown, any may.
    init(_ changes: some Sequence<Change>, table: String, stableColumns: Set<String>, dependencies: Set<String>?) {
        for change in changes where change.table == table {
            changed.insert(change.rowID)
            switch change.operation {
            case .insert:
                read.insert(change.rowID)
            case .delete:
                gone.insert(change.rowID)
            case .update:
                let column = change.column?.lowercased() ?? "rowid"
                let isStable = stableColumns.contains(column)
                if isStable, let dependencies, !dependencies.contains(column) {
                    valueOnly.insert(change.rowID)
                    continue
                }
                read.insert(change.rowID)
                // A new key for an INTEGER PRIMARY KEY moves the row to that rowid.
                if !isStable, case .integer(let moved)? = change.newValue {
                    changed.insert(moved)
                    read.insert(moved)
                }
            }
        }
    }
}

extension Collection<Change> {
    /// The batch's one entry and its column when the batch is a single update of one column (a
    /// model's set), else `nil`: the router and the journal's membership take such a batch
    /// without collecting its rows into sets.
    var onlyColumnUpdate: (change: Change, column: String)? {
        guard count == 1, let change = first, change.operation == .update, let column = change.column else { return nil }
        return (change, column)
    }
}
