#if SIGNALSTORE_SYNC
// Over 300 lines: one round (upload, download, apply a batch) and its lock-wait and echo rules, which read each other; the batch application is to become a type of its own (issue 65).
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
            if outcome.conflicts > 0 {
                progressValue.value.conflicts += outcome.conflicts
                refreshConflictList()
            }
            // A batch that got everything the log held: no need to ask again.
            if complete || limit != nil { return }
        }
    }

    /// What applying a batch did.
    struct BatchOutcome {
        /// Other replicas' entries.
        var downloaded = 0
        /// Entries that changed a row.
        var applied = 0
        /// Changes that lost to a constraint: downloaded ones, and this replica's pending ones.
        var conflicts = 0
        /// Whether local entries were stamped into the outbox first.
        var stampedLocal = false
    }

    /// Applies a downloaded batch in one local transaction with the new cursor. Local writes
    /// made before it get their stamps first, so the rule compares them with the batch; the
    /// batch's own journal entries are its echo: stamped past, never uploaded, and ringing no
    /// doorbell.
    ///
    /// - Parameter history: Whether the entries are the history of a scope just gained
    ///   (``ServerLog/history(of:after:through:limit:)``): this replica's own entries among them
    ///   are applied too, as its rows of that scope left with the scope.
    func apply(_ entries: [RemoteEntry], through: Int64, _ tables: SyncedTables, history: Bool = false) throws(SyncError) -> BatchOutcome {
        let othersChanges = { (position: ReplicaState.Position) in history || entries.contains { $0.origin != position.origin } }
        return try echoing(tables, stampingFirst: othersChanges) { connection, position, stampedLocal -> BatchOutcome in
            var unreadable = UnreadableEntries(entries)
            while true {
                do {
                    var walked = position
                    var outcome = try connection.transaction { try walk(unreadable.readable, history: history, tables, connection, &walked) }
                    outcome.conflicts += try unreadable.setAside(connection)
                    outcome.stampedLocal = stampedLocal
                    walked.serverCursor = max(walked.serverCursor, through)
                    position = walked
                    return outcome
                } catch let error as UnreadableEntry {
                    // Its savepoint rolled back whatever the walk wrote: again without it.
                    try unreadable.leaveOut(error)
                }
            }
        }
    }

    /// Applies a batch's readable entries (``apply(_:through:_:history:)``) with a fresh
    /// applier, and notes the clock they carry in `position`.
    private func walk(_ entries: [RemoteEntry], history: Bool, _ tables: SyncedTables, _ connection: Connection, _ position: inout ReplicaState.Position) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let applier = RemoteApplier(tables: tables, connection: connection, origin: position.origin, clock: position.clock)
        let origin = history ? "" : position.origin
        let waiting = try Outbox.lastSeq(connection)
        // Only with changes pending can a replay follow: only then does it need the rows.
        applier.footprint = BatchFootprint(tracksRows: waiting != nil)
        // With nothing pending here, or nothing a rule ties to the batch's rows, no change
        // of this replica's can be in an entry's way: the batch goes in one savepoint, and
        // only a constraint that an entry breaks (rare) makes it go again entry by entry,
        // each in a savepoint of its own.
        let walk = try nothingPendingAtFirstOthers(entries, origin: origin, waiting: waiting) || pendingApart(from: entries, origin: origin, tables, connection)
            ? try applier.inOneSavepoint { try applyInOrder(entries, origin: origin, tables.scopes, connection, applier, journalingByHand: true, applier.applyDirectly) }
            : nil
        let walked = try walk ?? applyInOrder(entries, origin: origin, tables.scopes, connection, applier, applier.apply)
        outcome.downloaded = walked.downloaded
        outcome.applied = walked.applied
        if outcome.downloaded > 0 { try applier.settlePending() }
        position.clock = max(position.clock, walked.clock, applier.clock)
        outcome.conflicts = applier.conflicts
        return outcome
    }

    /// Whether nothing is pending here once the walk through `entries` meets the first entry of
    /// another replica: the outbox is empty, or holds only entries this replica uploaded that
    /// the batch's first entries (its own, back from the log) confirm. That is the usual case
    /// after an upload: it caught up with the log first, so its entries come right after the
    /// cursor, and the batch starts with them.
    ///
    /// - Parameters:
    ///   - origin: This replica's origin id; `""` for a scope's history, whose entries of this
    ///     replica's are applied too (then only an empty outbox will do).
    ///   - waiting: The outbox's last seq; `nil` when it is empty.
    private func nothingPendingAtFirstOthers(_ entries: [RemoteEntry], origin: String, waiting: Int64?) -> Bool {
        guard let waiting else { return true }
        let ownFirst = entries.prefix { $0.origin == origin }
        guard let confirmed = ownFirst.last?.entry.originSeq else { return false }
        return confirmed >= waiting
    }

    /// Whether no rule ties this replica's pending changes to the rows the other replicas'
    /// entries of the batch change (``BatchFootprint``): replicas that each write their own
    /// rows. No pending change can then be in an entry's way. A batch only of this replica's
    /// own entries (a big transaction's pages coming back) meets nothing; more than
    /// ``RemoteApplier/replayLimit`` pending changes are not read for each batch.
    private func pendingApart(from entries: [RemoteEntry], origin: String, _ tables: SyncedTables, _ connection: Connection) throws -> Bool {
        var footprint = BatchFootprint()
        for remote in entries where remote.origin != origin { footprint.note(remote, tables.byName[remote.entry.table]) }
        guard !footprint.tables.isEmpty else { return true }
        guard try Outbox.count(after: 0, limit: RemoteApplier.replayLimit + 1, connection) <= RemoteApplier.replayLimit else { return false }
        return try !footprint.mayMeet(Outbox.pendingRows(connection), tables)
    }

    /// Runs `body` in one local write transaction whose journal entries are sync's echo:
    /// local writes made before it are stamped into the outbox first (`body` learns whether
    /// there were any), and what `body` writes is never uploaded and rings no doorbell.
    ///
    /// - Parameter stampingFirst: Whether `body` needs the local writes stamped first; `false`
    ///   for a batch only of this replica's own entries, which writes no row (the cursor passes
    ///   them and their uploads are confirmed): local writes not yet stamped stay so, and a big
    ///   transaction is still stamped a window at a time while its pages come back.
    func echoing<Result>(
        _ tables: SyncedTables, stampingFirst: (ReplicaState.Position) -> Bool = { _ in true },
        _ body: (Connection, inout ReplicaState.Position, _ stampedLocal: Bool) throws -> Result
    ) throws(SyncError) -> Result {
        let previousEcho = appliedThrough.withLock { $0 }
        do {
            return try local { connection -> Result in
                guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                let before = position.stampedThrough
                let stamping = stampingFirst(position)
                if stamping { try Outbox.stampPending(tables, at: &position, connection) }
                let result = try body(connection, &position, position.stampedThrough > before)
                if stamping { position.stampedThrough = try Journal.highestSeq(connection) }
                try ReplicaState.save(position, connection)
                // Set before the commit publishes the echo to the doorbell's subscriber.
                appliedThrough.withLock { $0 = position.stampedThrough }
                return result
            }
        } catch {
            appliedThrough.withLock { $0 = previousEcho }
            throw error
        }
    }

    /// What a walk through a batch did.
    private struct Walk {
        var downloaded = 0
        var applied = 0
        /// The latest clock among the entries.
        var clock = HybridLogicalClock(rawValue: 0)
    }

    /// Applies other replicas' entries in log order with `apply`; this replica's own entries,
    /// passed in log order, are no longer pending. An entry that moved its row to a scope not
    /// held here takes the row out instead.
    ///
    /// - Parameter journalingByHand: Whether long runs of inserts may go in without the capture
    ///   triggers (``RemoteApplier/planHandJournaling(_:ownOrigin:)``): only while nothing is
    ///   pending here, when `apply` is ``RemoteApplier/applyDirectly(_:)``.
    private func applyInOrder(
        _ entries: [RemoteEntry], origin: String, _ scopes: ReplicaScopes, _ connection: Connection,
        _ applier: RemoteApplier, journalingByHand: Bool = false, _ apply: (RowChange) throws -> RemoteApplier.Outcome
    ) throws -> Walk {
        var walk = Walk()
        var ownPassed: Int64?
        let changes = applier.rowChanges(entries)
        if journalingByHand { try applier.planHandJournaling(changes, ownOrigin: origin) }
        for change in changes {
            try applier.chooseCapture(for: change)
            let entry = change.firstEntry
            if entry.origin == origin {
                ownPassed = change.lastEntry.entry.originSeq
                continue
            }
            if let seq = ownPassed {
                try applier.resolver.confirmUploaded(through: seq)
                ownPassed = nil
            }
            walk.downloaded += change.count
            // A move carries its row's history, for a replica that gains the row. (A row change
            // of several entries never moves its row to another scope.)
            let arrived = try !scopes.leaves(entry) && applier.arrive(entry)
            let outcome = scopes.leaves(entry) ? try applier.leave(entry) : try apply(change)
            if arrived && outcome != .applied { walk.applied += 1 }
            if outcome == .applied { walk.applied += change.count }
            walk.clock = change.reduce(walk.clock) { max($0, $1.entry.clock) }
        }
        if let seq = ownPassed { try applier.resolver.confirmUploaded(through: seq) }
        return walk
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
