#if SIGNALSTORE_SYNC
import SignalStore

/// A replica of a deployment with scopes: following the role's grants (a scope gained brings
/// its history, a scope lost takes its rows), and giving up the local changes the server
/// refused.
extension SyncClient {
    /// Reads the role's scopes from the server and brings the rows here in line with them:
    /// at the start of every pass, so a `signalstore sync grant` or `revoke` takes effect
    /// without a restart. Returns `tables` with the scopes held now.
    func followScopes(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) -> SyncedTables {
        var tables = tables
        guard log.deployment.isScoped else {
            tables.scopes = ReplicaScopes()
            return tables
        }
        tables.scopes.columns = log.deployment.scopeColumns
        guard !log.deployment.seesEverything else {
            tables.scopes.held = nil
            listenedChannels.withLock { $0 = [log.everyEntryChannel] }
            return tables
        }
        let granted = try await log.heldScopes()
        let now = Set(granted.map(\.scope))
        listenedChannels.withLock { $0 = [log.channel] + granted.map(\.channel) }
        let (recorded, cursor) = try reading { connection in
            (try HeldScopes.read(connection), try ReplicaState.read(connection)?.serverCursor ?? 0)
        }
        tables.scopes.held = now
        progressValue.value.scopes = now.sorted()
        guard recorded != now else { return tables }
        // A file that synced before the server had scopes holds every scope's rows.
        let lost = recorded.map { $0.subtracting(now) }
        if lost.map({ !$0.isEmpty }) ?? (cursor > 0) {
            progressValue.value.scopeRowsRemoved += try removeRows(tables) { scope in lost.map { $0.contains(scope) } ?? !now.contains(scope) }
        }
        if let recorded, case let gained = now.subtracting(recorded), !gained.isEmpty {
            progressValue.value.scopeEntriesFetched += try await fetchHistory(of: gained, log, tables)
        }
        try local { connection in try HeldScopes.save(now, connection) }
        return tables
    }

    /// Removes every row of the scoped tables whose scope `isLeaving` names, with its
    /// registers, as sync's echo (never uploaded); returns how many went. A row that rows
    /// held here still reference by a foreign key that refuses its delete stays. So does a row
    /// with a change of this replica's still to upload: its scope here may be that change's
    /// (a move the server will refuse), and ``giveUp(_:stored:_:)`` removes it once undone.
    private func removeRows(_ tables: SyncedTables, where isLeaving: @escaping (String) -> Bool) throws(SyncError) -> Int {
        try echoing(tables) { connection, position, _ -> Int in
            var removed = 0
            // Children first: a parent's ON DELETE CASCADE would take them without their registers.
            for table in tables.parentsFirst.reversed() {
                guard let column = tables.scopes.columns[table.name], table.columns.contains(column) else { continue }
                let rows = try connection.rows("SELECT \(identifiers: table.primaryKey), \(identifier: column) FROM \(identifier: table.name)")
                for row in rows {
                    guard let scope = row.last.flatMap(ReplicaScopes.scope(of:)), isLeaving(scope) else { continue }
                    let key = Array(row.dropLast())
                    let states = try StampTable.states(table.name, SyncValueCoding.encodeKey(key), connection)
                    guard !states.values.contains(where: { $0.isPending(origin: position.origin) }) else { continue }
                    do {
                        try connection.transaction { try KeyedRow.write(nil, key: key, in: table.schema, connection) }
                    } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                        continue
                    }
                    try StampTable.forgetRow(table.name, SyncValueCoding.encodeKey(key), connection)
                    removed += 1
                }
            }
            return removed
        }
    }

    /// Removes the row with `key` if its scope is not one this replica holds.
    private func removeIfNotHeld(_ table: CapturedTable, _ key: [SQLiteValue], _ scopes: ReplicaScopes, _ connection: Connection) throws {
        guard let held = scopes.held, let column = scopes.columns[table.name],
              let row = try KeyedRow.read(key, in: table.schema, connection),
              let scope = row[column].flatMap(ReplicaScopes.scope(of:)), !held.contains(scope) else { return }
        do {
            try connection.transaction { try KeyedRow.write(nil, key: key, in: table.schema, connection) }
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            return
        }
        try StampTable.forgetRow(table.name, SyncValueCoding.encodeKey(key), connection)
    }

    /// Applies the entries of `scopes` that the log holds up to this replica's cursor, its own
    /// included: a scope gained. Returns how many.
    private func fetchHistory(of scopes: Set<String>, _ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) -> Int {
        let cursor = try reading { connection in try ReplicaState.read(connection)?.serverCursor ?? 0 }
        var after: Int64 = 0
        var fetched = 0
        while after < cursor {
            let (entries, through) = try await log.history(of: scopes.sorted(), after: after, through: cursor, limit: Self.batchSize)
            watchdog.touch()
            guard through > after else { break }
            let outcome = try apply(entries, through: cursor, tables, history: true)
            watchdog.touch()
            fetched += outcome.downloaded
            if outcome.conflicts > 0 || outcome.inboxChanged { refreshConflictList() }
            after = through
        }
        return fetched
    }

    /// Gives up this replica's changes that the server refused, where they are still to
    /// upload: each is kept in the conflicts with the server's reason, taken out of the outbox,
    /// and undone here. The server holds the rest of the upload (through outbox seq `stored`):
    /// they become the server state first, so undoing a refused change goes back to them (a
    /// row moved to scope 3, stored, then to scope 2, refused, is in scope 3 here too).
    func giveUp(_ refused: [ServerLog.Refusal], stored: Int64, _ tables: SyncedTables) throws(SyncError) {
        guard !refused.isEmpty else { return }
        let lost = try echoing(tables) { connection, position, _ -> Int in
            let resolver = ConflictResolver(tables: tables, connection: connection, origin: position.origin, clock: position.clock)
            var undone: [ConflictResolver.PendingRow] = []
            for refusal in refused {
                guard let entry = try Outbox.entry(seq: refusal.originSeq, connection), let table = tables.byName[entry.table],
                      let key = SyncValueCoding.decodeKey(entry.key) else { continue }
                try resolver.lose(entry, rule: "refused by the server: \(refusal.reason)", kind: .refused, collidedWith: "the server's checks")
                undone.append(ConflictResolver.PendingRow(table: table, key: key, registers: [Register(entry.operation, column: entry.column)]))
            }
            try resolver.confirmUploaded(through: stored)
            for row in undone {
                for register in row.registers { try StampTable.restoreServerState(register, row.table.name, row.encodedKey, connection) }
            }
            try resolver.writeServerStates(undone)
            // Undoing a refused delete of a row in a scope lost since brings back a row that is
            // not this replica's any more: it goes, as the scope's other rows went.
            for row in undone { try removeIfNotHeld(row.table, row.key, tables.scopes, connection) }
            return resolver.recorded
        }
        guard lost > 0 else { return }
        progressValue.value.conflicts += lost
        refreshConflictList()
    }
}
#endif
