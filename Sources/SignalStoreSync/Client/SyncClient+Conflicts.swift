#if SIGNALSTORE_SYNC
import SignalStore

extension SyncClient {
    /// The conflicts kept in `store`'s file, oldest first, without a client or a server: what
    /// `signalstore sync conflicts` lists.
    public static func conflicts(in store: Store) throws(SyncError) -> [SyncConflict] {
        do {
            return try store.readConnection(ConflictLog.all)
        } catch {
            throw SyncError(error)
        }
    }

    /// Writes a conflict's change again, as a new local change that syncs like any other,
    /// and forgets the conflict; `changing` fixes the row first (a new email for a UNIQUE
    /// collision, another parent for a foreign key).
    ///
    /// An insert or update writes the conflict's whole row (inserted if the key is not here,
    /// else updated); a delete deletes the row. One transaction: if the row still breaks a
    /// constraint, nothing is written and the conflict stays.
    ///
    /// ```swift
    /// for conflict in sync.conflicts.value where conflict.rule.contains("customers.email") {
    ///     try sync.reapply(conflict, changing: ["email": .text("second@example.com")])
    /// }
    /// ```
    /// - Throws: ``SyncError`` (``SyncError/Code/invalidArgument``) naming what still breaks,
    ///   or a column the table does not have.
    public func reapply(_ conflict: SyncConflict, changing: [String: SQLiteValue] = [:]) throws(SyncError) {
        try Self.reapply(conflict.id, changing: changing, in: store)
        refreshConflictList()
    }

    /// Forgets a conflict: its change stays lost.
    public func discard(_ conflict: SyncConflict) throws(SyncError) {
        try Self.discard(conflict.id, in: store)
        refreshConflictList()
    }

    /// ``reapply(_:changing:)`` by the conflict's id, without a client.
    public static func reapply(_ id: Int64, changing: [String: SQLiteValue] = [:], in store: Store) throws(SyncError) {
        do {
            try store.writeTransaction { connection in
                guard let conflict = try ConflictLog.find(id, connection) else { throw unknownConflict(id) }
                try write(conflict, changing: changing, store.schema, connection)
                try ConflictLog.remove(id, connection)
            }
        } catch let error as SyncError {
            throw error
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            throw SyncError(.invalidArgument, "conflict #\(id) cannot be re-applied: \(error.message); change the row (signalstore sync conflicts --reapply \(id) --set COLUMN=VALUE), or discard it")
        } catch {
            throw SyncError(error)
        }
    }

    /// ``discard(_:)`` by the conflict's id, without a client.
    public static func discard(_ id: Int64, in store: Store) throws(SyncError) {
        do {
            try store.writeTransaction { connection in
                guard try ConflictLog.find(id, connection) != nil else { throw unknownConflict(id) }
                try ConflictLog.remove(id, connection)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(error)
        }
    }

    private static func unknownConflict(_ id: Int64) -> SyncError {
        SyncError(.invalidArgument, "there is no conflict #\(id) in this database; list them with `signalstore sync conflicts`")
    }

    private static func write(_ conflict: SyncConflict, changing: [String: SQLiteValue], _ schema: SchemaCache, _ connection: Connection) throws {
        guard conflict.kind != .unreadable else {
            throw SyncError(.invalidArgument, "conflict #\(conflict.id) is an entry of the server's log that this replica cannot read, so there is nothing to re-apply; discard it")
        }
        guard let schema = try schema.table(conflict.table, connection) else {
            throw SyncError(.invalidArgument, "conflict #\(conflict.id) is about table '\(conflict.table)', which this database no longer has; discard it")
        }
        if let unknown = changing.keys.sorted().first(where: { schema.column(named: $0) == nil }) {
            throw SyncError(.invalidArgument, "table '\(conflict.table)' has no column '\(unknown)' (its columns: \(schema.columnNames.joined(separator: ", ")))")
        }
        if conflict.operation == .delete {
            try KeyedRow.write(nil, key: conflict.key, in: schema, connection)
            return
        }
        var row = conflict.row ?? Dictionary(uniqueKeysWithValues: zip(schema.primaryKey, conflict.key))
        for (column, value) in changing { row[schema.column(named: column)?.name ?? column] = value }
        try KeyedRow.write(row, key: conflict.key, in: schema, connection)
    }
}
#endif
