/// Which keys (``ResultsKey/routingKeys(of:)``) the rows of a batch held, for the ``ResultsRouter``: from the entries (an
/// insert's or delete's row, an update of the key column's old and new value), and for rows
/// only other columns of which changed, one read of the key column by rowid.
struct RowKeys {
    /// The rows that held each key at some point of the batch.
    private(set) var rowsByKey: [SQLiteValue: Set<Int64>] = [:]

    /// The keys of `changes` (entries of `table`) in `column` (lowercased); `nil` when they
    /// cannot be told: an entry that may move a row to another rowid (an update of a column not
    /// in `stableColumns`, the model's columns other than its primary key), or a read that failed.
    init?(_ changes: [Change], column: String, table: String, stableColumns: Set<String>, store: Store?) {
        var unknown = Set<Int64>()
        var known = Set<Int64>()
        for change in changes {
            switch change.operation {
            case .insert, .delete:
                guard let value = change.rowMembers?.first(where: { $0.column.lowercased() == column })?.value else { return nil }
                add(value, change.rowID)
                known.insert(change.rowID)
            case .update:
                let changed = change.column?.lowercased() ?? "rowid"
                if changed == column {
                    add(change.oldValue ?? .null, change.rowID)
                    add(change.newValue ?? .null, change.rowID)
                    known.insert(change.rowID)
                } else if !stableColumns.contains(changed) {
                    return nil
                } else {
                    unknown.insert(change.rowID)
                }
            }
        }
        unknown.subtract(known)
        guard !unknown.isEmpty else { return }
        guard let store, let read = try? Self.read(unknown, column: column, table: table, store) else { return nil }
        // A row not found was deleted by a later commit, whose entry names its key.
        for (rowID, value) in read { add(value, rowID) }
    }

    private mutating func add(_ value: SQLiteValue, _ rowID: Int64) {
        for key in ResultsKey.routingKeys(of: value) { rowsByKey[key, default: []].insert(rowID) }
    }

    /// The key column's value of each of `rowIDs` that exists, looked up by rowid whatever
    /// indexes the table has.
    private static func read(_ rowIDs: Set<Int64>, column: String, table: String, _ store: Store) throws -> [(Int64, SQLiteValue)] {
        let sql = SQL("SELECT rowid, \(identifier: column) FROM \(identifier: table) NOT INDEXED WHERE rowid ").text + KeyList.inBoundList
        return try store.reading { connection, _ in
            try connection.statement(sql).map([KeyList.of(rowIDs: rowIDs)]) { row -> (Int64, SQLiteValue)? in
                guard case .integer(let rowID) = row.column(0) else { return nil }
                return (rowID, row.column(1))
            }
        }
    }
}
