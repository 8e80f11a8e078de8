#if SIGNALSTORE_SYNC
import SignalStore

/// One row of a synced table named by its primary key, read and written whole: what the
/// conflict rule sets aside and applies again, and what a re-applied conflict writes.
enum KeyedRow {
    /// The row's values by column, or `nil` if no row has the key.
    static func read(_ key: [SQLiteValue], in table: TableSchema, _ connection: Connection) throws -> [String: SQLiteValue]? {
        let columns = table.columnNames
        guard let values = try connection.rows("SELECT \(identifiers: columns) FROM \(identifier: table.name) WHERE \(table.keyCondition(key))").first else { return nil }
        return Dictionary(uniqueKeysWithValues: zip(columns, values))
    }

    /// Makes the row with `key` hold `values` (updated if the key is here, else inserted), or
    /// not exist for `nil`.
    static func write(_ values: [String: SQLiteValue]?, key: [SQLiteValue], in table: TableSchema, _ connection: Connection) throws {
        guard let values else {
            try connection.run("DELETE FROM \(identifier: table.name) WHERE \(table.keyCondition(key))")
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
        let assignments = SQL(joining: columns.map { "\(identifier: $0) = \(value: values[$0] ?? .null)" }, separator: ", ")
        try connection.run("UPDATE \(identifier: table.name) SET \(assignments) WHERE \(table.keyCondition(key))")
    }
}
#endif
