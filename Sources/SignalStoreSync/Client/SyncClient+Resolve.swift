#if SIGNALSTORE_SYNC
import SignalStore

/// Resolving a concurrent edit (``SyncConflict/Kind/concurrentEdit``): one ordinary change, and
/// the edit leaves every replica's inbox.
extension SyncClient {
    /// Settles a concurrent edit: keeps the value that stands, writes the overwritten one
    /// again, or writes another.
    ///
    /// The new value is one ordinary change of the row, in one transaction: journaled, seen by
    /// live objects and signals, revertable with `store.revert`, and synced, so every replica
    /// takes it, and the edit leaves every replica's inbox (a phone's resolution empties the
    /// laptop's inbox too). Keeping the winner changes no value here, so it journals nothing;
    /// it still syncs. When the change that stands deleted the row, only keeping it settles the
    /// edit: bring the row back with an insert.
    ///
    /// ```swift
    /// for conflict in sync.conflicts.value where conflict.kind == .concurrentEdit {
    ///     try sync.resolve(conflict, with: conflict.column == "notes" ? .restoreLoser : .keepWinner)
    /// }
    /// ```
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidArgument``) when the conflict is not a
    ///   concurrent edit listed here (resolved already, on this replica or another), or its row
    ///   is no longer here; nothing is written then.
    public func resolve(_ conflict: SyncConflict, with resolution: SyncConflict.Resolution) throws(SyncError) {
        guard conflict.kind == .concurrentEdit else {
            throw SyncError(.invalidArgument, "conflict #\(conflict.id) is a \(conflict.kind.rawValue) conflict, not a concurrent edit: re-apply it (reapply(_:changing:)) or discard it (discard(_:))")
        }
        try Self.resolve(conflict.id, with: resolution, in: store)
        // The edit left the inbox in that transaction: the list follows without reading it all
        // again (resolving a thousand edits one by one read a thousand lists).
        conflictsValue.value.removeAll { $0.kind == .concurrentEdit && $0.id == conflict.id }
        doorbell.ring()
    }

    /// Settles many concurrent edits the same way, in one transaction: all of them, or none
    /// when one cannot be resolved (the error names it). Each is its own change, revertable
    /// alone.
    ///
    /// ```swift
    /// let edits = sync.conflicts.value.filter { $0.kind == .concurrentEdit && $0.table == "devices" }
    /// try sync.resolveAll(edits, with: .keepWinner)
    /// ```
    public func resolveAll(_ conflicts: [SyncConflict], with resolution: SyncConflict.Resolution) throws(SyncError) {
        if let other = conflicts.first(where: { $0.kind != .concurrentEdit }) {
            throw SyncError(.invalidArgument, "conflict #\(other.id) is a \(other.kind.rawValue) conflict, not a concurrent edit: re-apply it (reapply(_:changing:)) or discard it (discard(_:))")
        }
        try Self.resolving(in: store) { connection in
            for conflict in conflicts { try Self.resolve(conflict.id, with: resolution, store.schema, connection) }
        }
        let resolved = Set(conflicts.map(\.id))
        conflictsValue.value.removeAll { $0.kind == .concurrentEdit && resolved.contains($0.id) }
        doorbell.ring()
    }

    /// ``resolve(_:with:)`` by the edit's id, without a client: what `signalstore sync resolve`
    /// does. The change goes up with the next sync.
    public static func resolve(_ id: Int64, with resolution: SyncConflict.Resolution, in store: Store) throws(SyncError) {
        try resolving(in: store) { connection in try resolve(id, with: resolution, store.schema, connection) }
    }

    /// Runs `body` in one write transaction of `store`, with its errors as ``SyncError``s.
    private static func resolving(in store: Store, _ body: (Connection) throws -> Void) throws(SyncError) {
        do {
            try store.writeTransaction(body)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(error)
        }
    }

    /// Resolves one edit inside the caller's transaction: the row's change, the resolving
    /// entry in the outbox, and the edit out of the inbox.
    private static func resolve(_ id: Int64, with resolution: SyncConflict.Resolution, _ schema: SchemaCache, _ connection: Connection) throws {
        guard var position = try ReplicaState.read(connection),
              let edit = try ConcurrentEdits.find(id, origin: position.origin, connection),
              let rowKey = try ConcurrentEdits.rowKey(id, connection), let column = edit.column
        else { throw unknownEdit(id) }
        if edit.winningEdit?.deletesRow == true {
            // The delete stands: keeping it writes no row, and the resolving entry (an update of a
            // deleted row, which no replica applies) only takes the edit out of every inbox.
            guard resolution == .keepWinner else {
                throw SyncError(.invalidArgument, "concurrent edit #\(id): the row was deleted, and a delete stands against an update; insert the row again to bring it back, or keep the winner to settle the edit")
            }
            try Outbox.addResolution(of: id, table: edit.table, key: rowKey, column: column, value: .null, replacing: .null, &position, connection)
            try ReplicaState.save(position, connection)
            try ConcurrentEdits.remove(id, connection)
            return
        }
        let value = try chosenValue(resolution, for: edit)
        guard let schema = try schema.table(edit.table, connection), let stored = schema.column(named: column)?.name else {
            throw SyncError(.invalidArgument, "concurrent edit #\(id) is about \(edit.table).\(column), which this database no longer has")
        }
        guard let before = try KeyedRow.read(edit.key, in: schema, connection)?[stored] else {
            throw SyncError(.invalidArgument, "the row of concurrent edit #\(id) (\(edit.table) \(edit.key.map(\.description).joined(separator: ", "))) was deleted since, so there is nothing to resolve")
        }
        if before != value { try KeyedRow.update([stored], to: [stored: value], key: edit.key, in: schema, connection) }
        // The value as the column stores it (its affinity applied).
        let written = try KeyedRow.read(edit.key, in: schema, connection)?[stored] ?? value
        try Outbox.addResolution(of: id, table: edit.table, key: rowKey, column: stored, value: written, replacing: before, &position, connection)
        try ReplicaState.save(position, connection)
        try ConcurrentEdits.remove(id, connection)
    }

    private static func chosenValue(_ resolution: SyncConflict.Resolution, for edit: SyncConflict) throws -> SQLiteValue {
        let chosen: SQLiteValue? = switch resolution {
        case .keepWinner: edit.winner
        case .restoreLoser: edit.loser
        case .value(let value): value
        }
        guard let chosen else {
            throw SyncError(.invalidArgument, "concurrent edit #\(edit.id) does not know that value (the server's log did not keep it); resolve it with a value of your own")
        }
        return chosen
    }

    private static func unknownEdit(_ id: Int64) -> SyncError {
        SyncError(.invalidArgument, "there is no concurrent edit #\(id) in this database's inbox (resolved already, here or on another replica?); list them with `signalstore sync conflicts`")
    }
}
#endif
