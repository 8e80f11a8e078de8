#if SIGNALSTORE_SYNC
import SignalStore

/// The schema's foreign key actions under a delete from the server's log: they act on the rows
/// as the log has them, and what they do becomes the server state.
///
/// Every replica that applies the log in order sees a parent's delete set the references to it
/// to `NULL` (`ON DELETE SET NULL`), though no entry of the log names those changes. A replica
/// with pending changes of such a referencing row must see the same: the row is set aside to
/// its server state under the delete (``pendingServerReferences(to:through:)``), and what the
/// action wrote is recorded as the server state of the row's columns
/// (``recordingActions(of:key:_:)``), so that setting the row aside again later brings back
/// what the log made of it, not the reference from before the delete.
extension ConflictResolver {
    /// Runs `delete` (the physical delete of the row `key` of `table`, from the server's log)
    /// and records the columns of other rows that the foreign key actions changed meanwhile
    /// as their server state (``StampTable/recordAction(_:_:column:value:_:)``).
    ///
    /// Only for tables another synced table references with an action that writes a column;
    /// a cascading delete of the referencing rows is not recorded (their insert registers still
    /// say they exist in the server state).
    func recordingActions(of table: CapturedTable, key: String, _ delete: () throws -> Void) throws {
        let acting = tables.foreignKeys.contains { $0.parent == table.name && [.setNull, .setDefault].contains($0.onDelete) }
        guard acting else { return try delete() }
        let before = try Journal.highestSeq(connection)
        try delete()
        let entries = try Journal.entries(after: before, connection).filter { $0.operation == .update }
        guard !entries.isEmpty else { return }
        let keys = try Journal.keysAtWrite(entries, keyColumns: { tables.byName[$0]?.primaryKey }, connection)
        for entry in entries {
            guard let column = entry.column, let rowKey = keys[entry.seq].map(SyncValueCoding.encodeKey) else { continue }
            guard entry.table != table.name || rowKey != key else { continue }
            try StampTable.recordAction(entry.table, rowKey, column: column, value: SyncValueCoding.encode(entry.newValue ?? .null), connection)
        }
    }

    /// Rows with pending changes whose server state references `row` of `table` through one of
    /// `foreignKeys`, though the row here does not (this replica deleted it, or moved the
    /// reference): set aside, they hold the reference when the log's delete of `row` comes,
    /// and its action acts on them as on every other replica.
    ///
    /// Each with its pending insert, delete and referencing columns: what makes the row here
    /// differ from the server state where the action reads it. Only pending rows are read, so
    /// an empty outbox costs one query.
    func pendingServerReferences(to row: [String: SQLiteValue], through foreignKeys: [ForeignKey]) throws -> [PendingRow] {
        var pending: [PendingRow] = []
        for foreignKey in foreignKeys where [.setNull, .setDefault].contains(foreignKey.onDelete) {
            guard let child = tables.byName[foreignKey.child] else { continue }
            let values = foreignKey.referenced.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for encoded in try Outbox.keys(of: child.name, connection) {
                guard let server = try StampTable.serverRow(child.name, encoded, connection),
                      foreignKey.columns.map({ server[$0] ?? .null }) == values,
                      let key = SyncValueCoding.decodeKey(encoded) else { continue }
                let among: [Register] = [.insert, .delete] + foreignKey.columns.map(Register.column)
                let states = try StampTable.states(child.name, encoded, connection)
                let registers = among.filter { states[$0]?.isPending(origin: origin) == true }
                if !registers.isEmpty { pending.append(PendingRow(table: child, key: key, registers: registers)) }
            }
        }
        return pending
    }
}
#endif
