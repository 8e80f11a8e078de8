#if SIGNALSTORE_SYNC
import SignalStore

/// What a replica of a deployment with scopes does besides applying: a row arrives whole when a
/// move brings it into a scope held here, and leaves when a move takes it out.
extension RemoteApplier {
    /// A row that `remote` moved into a scope held here arrives whole: the history the move
    /// carries raises the row's registers (for a replica that had them, nothing changes; for
    /// one with a pending change of its own to the row, the server state is then known, to go
    /// back to if the server refuses that change). If the row is not here, the row the
    /// registers make is written in one go (entry by entry, an insert could name a parent that
    /// only a later update of the history replaces). Then the move applies as any update.
    /// Returns whether it wrote the row; a row that breaks a constraint here loses, as any entry.
    func arrive(_ remote: RemoteEntry) throws -> Bool {
        guard !remote.carried.isEmpty, let table = tables.byName[remote.entry.table], let key = SyncValueCoding.decodeKey(remote.entry.key) else { return false }
        return try savepoint(rewritingRows: true) {
            for earlier in remote.carried {
                let register = Register(earlier.entry.operation, column: earlier.entry.column)
                try StampTable.raise(register, table.name, remote.entry.key, to: earlier.stamp, value: earlier.entry.payload, fromServer: true, connection)
            }
            // A row missing here because of a change of this replica's own (a delete not yet
            // uploaded) stays as that change left it.
            let pending = try StampTable.states(table.name, remote.entry.key, connection).values.contains { $0.isPending(origin: resolver.origin) }
            guard !pending, try localRowID(key, in: table) == nil, let row = try StampTable.serverRow(table.name, remote.entry.key, connection) else { return false }
            do {
                try connection.transaction { try KeyedRow.write(row, key: key, in: table.schema, connection) }
            } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                try resolver.reject(remote, rule: error.message)
                return false
            }
            return true
        }
    }

    /// Takes the row of `remote` out of this replica: the entry moved it to a scope not held
    /// here. Its registers go too, so it can come back whole. A row that rows held here still
    /// reference by a foreign key that refuses its delete stays.
    func leave(_ remote: RemoteEntry) throws -> Outcome {
        guard let table = tables.byName[remote.entry.table], let key = SyncValueCoding.decodeKey(remote.entry.key) else { return .unchanged }
        footprint.unbounded()
        return try savepoint(rewritingRows: true) {
            var removed = false
            do {
                try connection.transaction {
                    try KeyedRow.write(nil, key: key, in: table.schema, connection)
                    removed = connection.changes > 0
                }
            } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                return .unchanged
            }
            try StampTable.forgetRow(table.name, remote.entry.key, connection)
            return removed ? .applied : .unchanged
        }
    }
}
#endif
