#if SIGNALSTORE_SYNC
import SignalStore

/// What the stamps table says of a row beyond its own registers: the later registers of a row,
/// and the row as the server's log left it.
extension StampTable {
    /// The delete and update registers of a row, in one read: as this replica has them, or
    /// as the server's log has them (`server`: this replica's pending changes left out).
    static func laterRegisters(_ table: String, _ key: String, server: Bool = false, _ connection: Connection) throws -> LaterRegisters {
        var result = LaterRegisters()
        for row in try connection.statement(server ? laterServerRegistersSQL : laterRegistersSQL).rows([.text(table), .text(key)]) {
            guard case .text(let name) = row[0], let stamp = storedStamp(row[1], row[2], row[3]) else { continue }
            switch Register(name: name) {
            case .delete: result.delete = stamp
            case .column(let column): result.columns[column] = stamp
            case .insert: break
            }
        }
        return result
    }

    private static let laterRegistersSQL = "SELECT col, hlc, origin, value FROM \(name) WHERE tbl = ? AND row_key = ? AND col <> '#insert'"
    private static let laterServerRegistersSQL =
        "SELECT col, base_hlc, base_origin, \(serverValue) FROM \(name) WHERE tbl = ? AND row_key = ? AND col <> '#insert' AND base_hlc IS NOT NULL"

    /// The row as the server's log makes it (this replica's pending changes left out), or `nil`
    /// if the row does not exist there or its inserted values are unknown.
    static func serverRow(_ table: String, _ key: String, _ connection: Connection) throws -> [String: SQLiteValue]? {
        let registers = try states(table, key, connection)
        guard let inserted = registers[.insert]?.server, let payload = inserted.value, var row = SyncValueCoding.decodeRow(payload) else { return nil }
        if let deleted = registers[.delete]?.server, deleted.stamp > inserted.stamp { return nil }
        // A column stamped as the insert holds what a foreign key action of the log made of it
        // (``recordAction(_:_:column:value:_:)``).
        for case (.column(let column), let state) in registers {
            guard let server = state.server, server.stamp >= inserted.stamp else { continue }
            row[column] = server.value.flatMap(SyncValueCoding.decode) ?? .null
        }
        return row
    }

    /// The rows of `table` (encoded keys) whose server state may hold one of `values` in
    /// `column`: their insert's value or the column's own update says so. A superset: the
    /// caller reads each row's server state (``serverRow(_:_:_:)``) to be sure. One pass over
    /// the table's registers per kind of value (and per 500 values), matching an encoded value's
    /// SQL value (`{"i":5}` by 5), not its spelling.
    static func serverReferenceCandidates(_ table: String, column: String, values: Set<SQLiteValue>, _ connection: Connection) throws -> Set<String> {
        var byTag: [String: [SQLiteValue]] = [:]
        for value in values {
            switch value {
            case .null: continue
            case .integer: byTag["i", default: []].append(value)
            case .real(let number): byTag["r", default: []].append(.text(number.description))
            case .text: byTag["t", default: []].append(value)
            case .blob(let bytes): byTag["b", default: []].append(.text(bytes.base64EncodedString()))
            }
        }
        var keys: Set<String> = []
        for (tag, plain) in byTag {
            for start in stride(from: 0, to: plain.count, by: 500) {
                let chunk = Array(plain[start..<min(start + 500, plain.count)])
                let wanted = Array(repeating: "(?)", count: chunk.count).joined(separator: ", ")
                let rows = try connection.statement("""
                    WITH wanted(v) AS (VALUES \(wanted))
                    SELECT DISTINCT row_key FROM \(name) WHERE tbl = ? AND base_hlc IS NOT NULL
                      AND ((col = '#insert' AND json_extract(\(serverValue), ?) IN (SELECT v FROM wanted))
                        OR (col = ? AND json_extract(\(serverValue), ?) IN (SELECT v FROM wanted)))
                    """).rows(chunk + [.text(table), .text("$.\"\(column)\".\(tag)"), .text(column), .text("$.\(tag)")])
                keys.formUnion(rows.compactMap(\.first?.textValue))
            }
        }
        return keys
    }

    /// A foreign key action of a change from the server's log (a parent's delete setting the
    /// references to it to `NULL`) wrote `value` (encoded) into `column` of another row: that is
    /// now the column's value in the server state, as on every replica that applies the log in
    /// order, though no entry of the log names it.
    ///
    /// No stamp moves later than the row's insert, so which later entry wins stays what it was:
    /// an update still wins over the column when it is later than both the insert and the
    /// column's own update. Left out, a pending change set aside brought back the reference the
    /// action had removed, once the parent was inserted again (chaos seed 193 with faults).
    /// A row the log does not have (its insert is pending here) is left alone.
    ///
    /// A change of this replica's own that is pending in the column and older than the action's
    /// stamp no longer acts: uploaded, it comes after the action in the log and loses to it on
    /// every replica, so the column here takes the action too. Kept pending under a later
    /// server state, it was the register's stamp that the next entry from the log was compared
    /// with: an entry older than the action but later than the pending change replaced the
    /// action's server state, and the row later went back to its insert's reference on that
    /// replica only (chaos seed 76 with faults, amplified). And its own origin's register stayed
    /// pending for good once the change was confirmed, the confirmation being older still.
    ///
    /// Returns whether the column as this replica has it took the value too (no later change
    /// of its own is pending): the caller makes the row here follow.
    @discardableResult
    static func recordAction(_ table: String, _ key: String, column: String, value: String, _ connection: Connection) throws -> Bool {
        guard let inserted = try state(table, key, .insert, connection)?.server?.stamp else { return false }
        let existing = try state(table, key, .column(column), connection)
        let stamp = max(existing?.server?.stamp ?? inserted, inserted)
        let arguments: [SQLiteValue] = [.text(table), .text(key), .text(column), .integer(stamp.clock.rawValue), .text(stamp.origin), .text(value)]
        guard let existing else {
            try connection.statement("INSERT INTO \(name) (tbl, row_key, col, hlc, origin, value, base_hlc, base_origin, base_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?5, ?6)")
                .run(arguments)
            return true
        }
        let laterPending = existing.current != existing.server && existing.current.stamp > stamp
        try connection.statement(laterPending
            ? "UPDATE \(name) SET base_hlc = ?4, base_origin = ?5, base_value = ?6 WHERE tbl = ?1 AND row_key = ?2 AND col = ?3"
            : "UPDATE \(name) SET hlc = ?4, origin = ?5, value = ?6, base_hlc = ?4, base_origin = ?5, base_value = ?6 WHERE tbl = ?1 AND row_key = ?2 AND col = ?3")
            .run(arguments)
        return !laterPending
    }
}
#endif
