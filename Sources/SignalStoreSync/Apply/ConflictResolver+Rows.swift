#if SIGNALSTORE_SYNC
import SignalStore

/// The rows the resolver reads: what a downloaded change would leave, the row here now, and
/// the rows whose columns hold given values.
extension ConflictResolver {
    /// The row `remote` would leave: an insert's row, or the local row with an update's value.
    func intendedRow(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [String: SQLiteValue]? {
        let entry = remote.entry
        switch entry.operation {
        case .insert:
            return entry.payload.flatMap(SyncValueCoding.decodeRow)
        case .update:
            guard var row = try localRow(table, key), let column = entry.column, let value = entry.payload.flatMap(SyncValueCoding.decode) else { return nil }
            row[column] = value
            return row
        case .delete:
            return try localRow(table, key)
        }
    }

    func localRow(_ table: CapturedTable, _ key: [SQLiteValue]) throws -> [String: SQLiteValue]? {
        try KeyedRow.read(key, in: table.schema, connection)
    }

    /// The primary keys of `table`'s rows whose `columns` hold `values`.
    func keys(of table: CapturedTable, where columns: [String], are values: [SQLiteValue]) throws -> [[SQLiteValue]] {
        let condition = SQL(joining: zip(columns, values).map { "\(identifier: $0) IS \(value: $1)" }, separator: " AND ")
        return try connection.rows("SELECT \(identifiers: table.primaryKey) FROM \(identifier: table.name) WHERE \(condition)")
    }
}
#endif
