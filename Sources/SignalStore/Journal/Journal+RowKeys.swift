extension Journal {
    /// The primary key each entry's row had when the entry was written, by seq; entries of
    /// tables with no key (as `keyColumns` says) are left out.
    ///
    /// An update carries only a rowid, and the row may have changed key or gone since. The
    /// entries are walked from the newest back, from the rows as they are now: a later delete,
    /// insert or key change tells what the key was. Call inside a transaction that sees the
    /// journal's head, so "now" is just after the last entry.
    /// - Parameter keyColumns: A table's primary-key columns, in key order; `nil` or empty for a
    ///   table whose rows are named by rowid only.
    package static func keysAtWrite(
        _ entries: [Change], keyColumns: (String) -> [String]?, _ connection: Connection
    ) throws -> [Int64: [SQLiteValue]] {
        struct RowID: Hashable { let table: String; let rowID: Int64 }
        var keyAfter: [RowID: [SQLiteValue]?] = [:]   // walking back: the row's key just after the entry
        var keys: [Int64: [SQLiteValue]] = [:]
        for entry in entries.reversed() {
            guard let key = keyColumns(entry.table), !key.isEmpty else { continue }
            let id = RowID(table: entry.table, rowID: entry.rowID)
            switch entry.operation {
            case .insert, .delete:
                guard let row = entry.row else { continue }
                let values = key.compactMap { row[$0] }
                guard values.count == key.count else { continue }
                keys[entry.seq] = values
                keyAfter[id] = entry.operation == .insert ? .some(nil) : .some(values)
            case .update:
                let after: [SQLiteValue]?
                if let known = keyAfter[id] { after = known } else { after = try currentKey(of: entry.rowID, entry.table, key, connection) }
                guard var values = after else { continue }
                if let column = entry.column, let index = key.firstIndex(of: column) { values[index] = entry.oldValue ?? .null }
                keys[entry.seq] = values
                keyAfter[id] = .some(values)
            }
        }
        return keys
    }

    private static func currentKey(of rowID: Int64, _ table: String, _ key: [String], _ connection: Connection) throws -> [SQLiteValue]? {
        let columns = key.map(quotedIdentifier).joined(separator: ", ")
        return try connection.statement("SELECT \(columns) FROM \(quotedIdentifier(table)) WHERE rowid = ?").rows([.integer(rowID)]).first
    }
}
