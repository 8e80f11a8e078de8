#if SIGNALSTORE_SYNC
import SignalStore

/// One row of a synced table named by its primary key, read and written whole: what the
/// conflict rule sets aside and applies again, and what a re-applied conflict writes.
enum KeyedRow {
    /// The row's values by column, or `nil` if no row has the key.
    static func read(_ key: [SQLiteValue], in table: TableSchema, _ connection: Connection) throws -> [String: SQLiteValue]? {
        let columns = table.columnNames
        guard let values = try connection.rows(RowSQL.read(columns, from: table.name, at: .primaryKey(key, in: table))).first else { return nil }
        return Dictionary(uniqueKeysWithValues: zip(columns, values))
    }

    /// Makes the row with `key` hold `values` (updated if the key is here, else inserted), or
    /// not exist for `nil`.
    static func write(_ values: [String: SQLiteValue]?, key: [SQLiteValue], in table: TableSchema, _ connection: Connection) throws {
        guard let values else {
            try connection.run(RowSQL.delete(from: table.name, at: .primaryKey(key, in: table)))
            return
        }
        let columns = table.columnNames.filter { values[$0] != nil }
        if try read(key, in: table, connection) != nil {
            try update(columns, to: values, key: key, in: table, connection)
        } else {
            try connection.statement(RowSQL.insert(into: table.name, columns: columns)).run(columns.map { values[$0] ?? .null })
        }
    }

    /// Sets `columns` of the row with `key` to their `values`.
    static func update(_ columns: [String], to values: [String: SQLiteValue], key: [SQLiteValue], in table: TableSchema, _ connection: Connection) throws {
        try connection.run(RowSQL.update(table.name, setting: columns.map { ($0, values[$0] ?? .null) }, at: .primaryKey(key, in: table)))
    }
}
#endif
