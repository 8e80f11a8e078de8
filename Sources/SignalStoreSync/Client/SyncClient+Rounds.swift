#if SIGNALSTORE_SYNC
// One pass of sync: upload what is pending, download what is new, and the local transactions around them; applying one downloaded batch is in SyncClient+Batch.
import Foundation
import Signals
import SignalStore

/// One round of sync: upload what is pending, apply what is new, in local transactions.
extension SyncClient {
    /// Notes that the server holds this replica's entries through outbox seq `stored` (some
    /// may have gone up just before a crash or a cut link), in a write only when that is news.
    func noteUploaded(through stored: Int64) throws(SyncError) {
        let known = try reading { connection in try ReplicaState.read(connection)?.uploadedThrough }
        guard let known, stored > known else { return }
        try local { connection in
            guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            position.uploadedThrough = max(position.uploadedThrough, stored)
            try ReplicaState.save(position, connection)
        }
    }

    /// One round: follow the role's scopes (with scopes), upload everything pending, then
    /// apply everything new on the server. Returns the tables with the scopes held now.
    func pass(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) -> SyncedTables {
        let tables = try await followScopes(log, tables)
        try await upload(log, tables)
        try await download(log, tables)
        let pending = try reading { connection -> Int64 in
            guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            return try Outbox.count(after: position.uploadedThrough, connection)
        }
        progressValue.value.pendingUpload = pending
        // The download went on until the log had nothing more (a batch short of full).
        progressValue.value.behind = 0
        return tables
    }

    /// Uploads the outbox a batch at a time, stamping new journal entries a window at a time
    /// beside it: a big transaction's first pages are on the server, and other replicas
    /// apply them, while the rest is still to stamp. Each batch goes up in a PostgreSQL transaction
    /// that first applies whatever other replicas uploaded before it (holding the log's lock,
    /// so nothing else can come in between): this replica's changes then always come after
    /// everything it has applied, which the conflict rule needs. A replica whose schema is
    /// behind the log's cannot apply it, and uploads all the same (its changes are checked
    /// where the log puts them, as every replica checks them).
    ///
    /// The next window is stamped while the server stores the batch just read from the outbox
    /// (``stampNextWindow(during:_:stamping:)``): stamping is this replica's work and storing the server's,
    /// so a big transaction's windows no longer wait for each other's round trips. Stamping
    /// only turns journal entries into outbox entries after the ones read, in the same order
    /// as stamping them later would.
    ///
    /// Another replica's upload may hold the log's lock: the upload then waits at most
    /// ``firstLockWait`` for it, applies what is new meanwhile, outside the lock, and tries
    /// again, from then on waiting ``longestLockWait`` each time and applying at most
    /// ``queuedBatchSize`` new entries between tries. No wait looks like a dead link, and the
    /// catch-up under the lock holds what came during one wait: 50 replicas that applied
    /// nothing between tries caught up on up to 9,000 entries each under the lock, one after
    /// the other, while the others waited.
    private func upload(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) {
        var unstamped = try stampPending(tables, windows: 1)
        var lockWait = Self.firstLockWait
        while true {
            let (waiting, origin) = try reading { connection -> (Bool, String) in
                guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                return (try Outbox.hasEntries(after: position.uploadedThrough, connection), position.origin)
            }
            guard waiting else {
                guard unstamped else { return }
                unstamped = try stampPending(tables, windows: 1)   // a window of entries of tables that do not sync
                continue
            }
            let (upload, stampedMore) = try await stampNextWindow(during: { [lockWait] pageRead in
                try await log.upload(origin: origin, lockWait: lockWait) { stored in
                    try self.noteUploaded(through: stored)
                    try await self.downloadBeside(log, tables)
                    defer { pageRead.ring() }
                    return try self.reading { connection in try Outbox.pending(after: stored, limit: Self.batchSize, connection) }
                }
            }, tables, stamping: unstamped)
            watchdog.touch()
            guard let upload else {
                unstamped = stampedMore
                // What is new is applied before the next try, so the catch-up under the lock
                // holds at most what came during one wait: after the first try everything, after
                // later ones a batch of at most `queuedBatchSize`, which is done before the
                // holder is (a replica that takes the lock again and again, a big
                // transaction's windows, finds this one queued again).
                try await downloadBeside(log, tables, oneBatchOf: lockWait == Self.firstLockWait ? nil : Self.queuedBatchSize)
                lockWait = Self.longestLockWait
                continue
            }
            lockWait = Self.firstLockWait
            // Counted first: the server has them even if noting it here waits for a lock.
            progressValue.value.uploaded += upload.count
            try giveUp(upload.refused, stored: upload.stored, tables)
            try noteUploaded(through: upload.stored)
            if upload.count == 0 && upload.refused.isEmpty && !unstamped { return }
            unstamped = stampedMore
        }
    }

    /// How long an upload first waits for the log's lock (with a short catch-up, an upload
    /// holds it for a few round trips), and how long each later try waits: well inside the
    /// round deadline.
    static let firstLockWait = Duration.milliseconds(20)
    static let longestLockWait = Duration.milliseconds(640)

    /// The most entries an upload applies between two tries for the log's lock after the
    /// first: about what 50 replicas upload during one ``longestLockWait``.
    static let queuedBatchSize = 1_000

    /// A download beside an upload: in its catch-up, or while another replica's upload holds
    /// the log (then perhaps only one batch, ``download(_:_:oneBatchOf:)``). Applying waits
    /// for this database's migration when the log's schema is newer; this replica's own
    /// changes go up all the same.
    private func downloadBeside(_ log: ServerLog, _ tables: SyncedTables, oneBatchOf limit: Int? = nil) async throws(SyncError) {
        do {
            try await download(log, tables, oneBatchOf: limit)
        } catch where error.code == .schemaMismatch {
        }
    }

    /// Runs `upload` and, once it has read its batch from the outbox (it rings `pageRead`),
    /// stamps the next window of journal entries while the server stores the batch, if
    /// `stamping` says any are left. Returns the upload and whether entries are still left
    /// to stamp after that.
    private func stampNextWindow(
        during upload: @escaping @Sendable (_ pageRead: Doorbell) async throws -> ServerLog.Upload?,
        _ tables: SyncedTables, stamping: Bool
    ) async throws(SyncError) -> (ServerLog.Upload?, unstamped: Bool) {
        let pageRead = Doorbell()
        async let uploaded: ServerLog.Upload? = {
            defer { pageRead.ring() }   // a failed upload never reads its batch
            return try await upload(pageRead)
        }()
        do {
            var unstamped = stamping
            if stamping {
                await pageRead.wait(timeout: .seconds(3_600))   // it always rings: the bound is only a guard
                unstamped = try stampPending(tables, windows: 1)
            }
            return (try await uploaded, unstamped)
        } catch {
            throw SyncError(error)
        }
    }

    /// Applies what is new on the server, a batch at a time: everything, or with `limit`, one
    /// batch of at most that many entries.
    private func download(_ log: ServerLog, _ tables: SyncedTables, oneBatchOf limit: Int? = nil) async throws(SyncError) {
        while true {
            let (cursor, origin) = try reading { connection -> (Int64, String) in
                guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                return (position.serverCursor, position.origin)
            }
            let (entries, through, complete) = try await log.download(after: cursor, own: origin, tables: tables.names, limit: limit ?? Self.batchSize)
            watchdog.touch()
            guard through > cursor else { return }
            let outcome = try apply(entries, through: through, tables)
            watchdog.touch()
            // Local writes stamped in the same transaction are still to upload.
            if outcome.stampedLocal { doorbell.ring() }
            progressValue.value.downloaded += outcome.downloaded
            progressValue.value.applied += outcome.applied
            progressValue.value.conflicts += outcome.conflicts
            if outcome.conflicts > 0 || outcome.inboxChanged { refreshConflictList() }
            // A batch that got everything the log held: no need to ask again.
            if complete || limit != nil { return }
        }
    }

    /// Reads the conflicts again into ``conflicts``.
    func refreshConflictList() {
        if let all = try? reading(ConflictLog.all) { conflictsValue.value = all }
    }

    /// Stamps new journal entries into the outbox, at most `windows` windows of them
    /// (``Outbox/window`` entries each), in a write transaction only when there are any: a pass
    /// that finds nothing new writes nothing. Returns whether entries are left to stamp.
    private func stampPending(_ tables: SyncedTables, windows: Int) throws(SyncError) -> Bool {
        let (stamped, head) = try reading { connection in
            (try ReplicaState.read(connection)?.stampedThrough, try Journal.highestSeq(connection))
        }
        guard let stamped else { throw SyncError(store: .closed) }
        guard head > stamped else { return false }
        return try local { connection in
            guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            let before = position
            try Outbox.stampPending(tables, at: &position, windows: windows, connection)
            if position != before { try ReplicaState.save(position, connection) }
            return try position.stampedThrough < Journal.highestSeq(connection)
        }
    }

    /// Runs `body` on a read-only connection, beside the writer.
    func reading<Result>(_ body: (Connection) throws -> Result) throws(SyncError) -> Result {
        do {
            return try store.readConnection(body)
        } catch {
            throw SyncError(error)
        }
    }

    /// Runs `body` in one local write transaction; its journal entries are published on commit.
    func local<Result>(_ body: (Connection) throws -> Result) throws(SyncError) -> Result {
        do {
            return try store.writeTransaction(body)
        } catch {
            throw SyncError(error)
        }
    }
}
#endif
