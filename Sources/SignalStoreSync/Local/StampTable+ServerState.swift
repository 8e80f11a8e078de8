#if SIGNALSTORE_SYNC
import SignalStore

/// What the stamps table says of a row beyond its own registers: the later registers of a row,
/// and the row as the server's log left it.
extension StampTable {
    /// The delete and update registers of a row, in one read: as this replica has them, or
    /// as the server's log has them (`server`: this replica's pending changes left out).
    static func laterRegisters(_ table: String, _ key: String, server: Bool = false, _ connection: Connection) throws -> LaterRegisters {
        var result = LaterRegisters()
        let sql = server
            ? "SELECT col, base_hlc, base_origin, base_value FROM \(name) WHERE tbl = ? AND row_key = ? AND col <> '#insert' AND base_hlc IS NOT NULL"
            : "SELECT col, hlc, origin, value FROM \(name) WHERE tbl = ? AND row_key = ? AND col <> '#insert'"
        for row in try connection.statement(sql).rows([.text(table), .text(key)]) {
            guard case .text(let name) = row[0], let stamp = storedStamp(row[1], row[2], row[3]) else { continue }
            switch Register(name: name) {
            case .delete: result.delete = stamp
            case .column(let column): result.columns[column] = stamp
            case .insert: break
            }
        }
        return result
    }

    /// The row as the server's log makes it (this replica's pending changes left out), or `nil`
    /// if the row does not exist there or its inserted values are unknown.
    static func serverRow(_ table: String, _ key: String, _ connection: Connection) throws -> [String: SQLiteValue]? {
        let registers = try states(table, key, connection)
        guard let inserted = registers[.insert]?.server, let payload = inserted.value, var row = SyncValueCoding.decodeRow(payload) else { return nil }
        if let deleted = registers[.delete]?.server, deleted.stamp > inserted.stamp { return nil }
        for case (.column(let column), let state) in registers {
            guard let server = state.server, server.stamp > inserted.stamp else { continue }
            row[column] = server.value.flatMap(SyncValueCoding.decode) ?? .null
        }
        return row
    }
}
#endif
