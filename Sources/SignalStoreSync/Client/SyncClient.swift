#if SIGNALSTORE_SYNC
import Foundation
import Signals
import SignalStore

/// Keeps a store in sync with other stores, on other machines, through one PostgreSQL server.
///
/// Every change to the synced tables, by any writer of the database file (the app, another
/// process, the `signalstore` CLI, a `sqlite3` shell), is uploaded to an ordered log in
/// PostgreSQL; every other replica's changes are applied to the local tables, where live
/// objects and signals see each once. How, and the rules for conflicts, are in the
/// <doc:SyncDesign> article.
///
/// ```swift
/// import SignalStoreSync
///
/// func keepInSync(_ store: Store) async throws {
///     let sync = SyncClient(store: store, url: try PostgresURL("postgres://app:secret@db.example.com/app?sslmode=verify-full"))
///     let printer = sync.status.signal.subscribe(onValue: { status in print("sync:", status) })
///     defer { printer.dispose() }
///     try await sync.run()   // until the task is cancelled, or an error retrying cannot fix
/// }
/// ```
public final class SyncClient: Sendable {
    /// The store that syncs.
    public let store: Store
    /// The server.
    public let url: PostgresURL
    /// The tables that sync; `nil` for every table the journal captures.
    public let tables: [String]?
    /// What the client is doing; errors arrive here as ``SyncStatus/offline(_:retryIn:)`` and
    /// ``SyncStatus/failed(_:)``.
    public let status: Property<SyncStatus>
    /// What has moved since the client was made.
    public let progress: Property<SyncProgress>
    /// The changes that lost to a constraint between replicas and wait for a decision,
    /// oldest first: re-apply one after a fix with ``reapply(_:changing:)``, or ``discard(_:)``
    /// it. Read from the database file when the client is made, and again whenever sync records
    /// one; `signalstore sync conflicts` lists the same.
    public let conflicts: Property<[SyncConflict]>

    /// Entries per upload and per applied batch: one PostgreSQL and one SQLite transaction each.
    static let batchSize = 5_000

    private let statusValue = MutableProperty(SyncStatus.stopped)
    private let progressValue = MutableProperty(SyncProgress())
    private let conflictsValue: MutableProperty<[SyncConflict]>
    /// When the round last heard from PostgreSQL or moved locally: the round deadline counts
    /// from here, so a long round that makes progress never counts as a dead link.
    private let watchdog = Watchdog()
    private let doorbell = Doorbell()
    private let pollInterval: Duration
    /// The journal seq through which local commits are this client's own applies of remote
    /// changes (their echo): they ring no doorbell, as there is nothing to upload.
    private let appliedThrough = Locked<Int64>(0)

    /// Makes a client; nothing happens until ``run()`` or ``syncOnce()``.
    /// - Parameters:
    ///   - tables: The tables to sync (each needs a primary key); `nil` for all. Every replica
    ///     should sync the same list: a replica that leaves a table out skips its changes for good.
    ///   - pollInterval: How often to look at the server when no `NOTIFY` arrives (notifications
    ///     are lost while disconnected, and some proxies drop them).
    public init(store: Store, url: PostgresURL, tables: [String]? = nil, pollInterval: Duration = .seconds(5)) {
        self.store = store
        self.url = url
        self.tables = tables
        self.pollInterval = pollInterval
        status = Property(statusValue)
        progress = Property(progressValue)
        conflictsValue = MutableProperty((try? store.readConnection(ConflictLog.all)) ?? [])
        conflicts = Property(conflictsValue)
    }

    /// Uploads every local change and applies every change on the server, then returns.
    /// - Throws: ``SyncError``; local changes not uploaded stay in the outbox for the next try.
    @discardableResult
    public func syncOnce() async throws(SyncError) -> SyncProgress {
        try await onOwnThread { () async throws(SyncError) -> SyncProgress in try await syncRound() }
    }

    private func syncRound() async throws(SyncError) -> SyncProgress {
        statusValue.value = .connecting
        do {
            let (log, tables) = try await connect()
            defer { Task { await log.close() } }
            statusValue.value = .syncing
            try await pass(log, tables)
            statusValue.value = .stopped
            return progressValue.value
        } catch {
            statusValue.value = .failed(error)
            throw error
        }
    }

    /// Syncs until the task is cancelled: after every local commit and every other replica's
    /// upload (PostgreSQL `NOTIFY`), and every `pollInterval`. While the server cannot be
    /// reached, local writes go on and wait; reconnects back off from 0.25 s to 2 s with
    /// jitter, so sync is back within about 2 s of the server answering again.
    /// - Throws: ``SyncError`` that retrying cannot fix (a wrong password, a schema mismatch);
    ///   returns normally when cancelled.
    public func run() async throws(SyncError) {
        try await onOwnThread { () async throws(SyncError) in try await runRounds() }
    }

    private func runRounds() async throws(SyncError) {
        let localCommits = store.committedSeqs().subscribe(onValue: { [doorbell, appliedThrough] seq in
            if seq > appliedThrough.withLock({ $0 }) { doorbell.ring() }
        })
        defer { localCommits.dispose() }
        var delay = Self.firstReconnectDelay
        while !Task.isCancelled {
            statusValue.value = .connecting
            do {
                let (log, tables) = try await connect()
                delay = Self.firstReconnectDelay
                try await follow(log, tables)
            } catch where Task.isCancelled {
                break   // what failed was cut short by the cancellation: not offline, stopping
            } catch where error.isLockBusy {
                await waitForLock(error)
            } catch where error.isTransient {
                let wait = delay * Double.random(in: 0.5...1.0)
                statusValue.value = .offline(error, retryIn: wait)
                try? await Task.sleep(for: wait)
                delay = min(delay * 2, Self.longestReconnectDelay)
            } catch {
                statusValue.value = .failed(error)
                throw error
            }
        }
        statusValue.value = .stopped
    }

    /// The wait before the first reconnect, and the longest: a reconnect attempt costs the
    /// server little, and a short longest wait brings sync back soon after an outage.
    static let firstReconnectDelay = Duration.milliseconds(250)
    static let longestReconnectDelay = Duration.seconds(2)

    /// Removes the entries of the server's log that later writes supersede, and returns how
    /// many went. Every replica, whatever its cursor, ends with the same rows as without it;
    /// new replicas then read only what the rows are now. Safe while other replicas sync.
    ///
    /// Tables that constraints tie to other rows (a UNIQUE key besides the primary key, rows
    /// that others reference, references whose parent's delete cascades or is refused) keep
    /// their whole history: the conflict rule replays it in order.
    public func compactServerLog() async throws(SyncError) -> Int {
        try await onOwnThread { () async throws(SyncError) -> Int in try await compact() }
    }

    private func compact() async throws(SyncError) -> Int {
        let compactable = try reading { connection in try SyncedTables(self.tables, connection).compactable(connection) }
        let log = try await Self.withDeadline(url, abandoned: { log in await log.close() }) { [url] () async throws -> ServerLog in try await ServerLog.connect(url) }
        do {
            let deleted = try await log.compact(tables: compactable)
            await log.close()
            return deleted
        } catch {
            await log.close()
            throw error
        }
    }

    /// Gives this database file a new origin id and starts its sync state over: for a copy of
    /// another replica's file (sync refuses to run on one with ``SyncError/duplicateOrigin``).
    /// Its rows are uploaded again as the new replica's; rows with the same keys merge.
    public func renewOrigin() throws(SyncError) {
        try local(ReplicaState.forget)
    }

    // MARK: The loop

    /// The thread of the running ``run()``, ``syncOnce()`` or ``compactServerLog()``, for the
    /// tasks it starts (unstructured tasks do not inherit an executor preference).
    @TaskLocal private static var thread: ThreadExecutor?

    /// Runs `body` on a thread of its own, not the concurrency runtime's cooperative pool.
    ///
    /// A round blocks that thread while SQLite waits for a lock, and its deadline counts from
    /// PostgreSQL's last answer: on the pool (one thread per core), an app whose other tasks
    /// keep the pool busy delayed each resumption after an answer, and rounds that made
    /// progress timed out (seen in the test suite's first seconds, hundreds of tests starting
    /// at once on 2 cores: a connect went 8 s without resuming).
    private func onOwnThread<Value: Sendable>(_ body: () async throws(SyncError) -> Value) async throws(SyncError) -> Value {
        let executor = ThreadExecutor(name: "SignalStoreSync \(url.host):\(url.port)/\(url.schema)")
        defer { executor.finish() }
        let outcome = await Self.$thread.withValue(executor) { () async -> Swift.Result<Value, SyncError> in
            await withTaskExecutorPreference(executor) { () async -> Swift.Result<Value, SyncError> in
                do throws(SyncError) { return .success(try await body()) } catch { return .failure(error) }
            }
        }
        return try outcome.get()
    }

    /// Passes until cancelled or the connection fails.
    ///
    /// The `LISTEN` runs in a task of its own that is cancelled, not awaited: the driver may
    /// leave a listen on a connection that is closing suspended for good, and waiting for it
    /// would stop sync. It rings the doorbell once the `LISTEN` is in place (the first pass may
    /// have run before it, and a change committed in between notified nobody) and when it ends,
    /// so the next pass finds out at once whether the connection still works. A connection
    /// the server closes (a restart, an administrator) rings too, and the loop reconnects at
    /// once instead of waiting for a round deadline.
    private func follow(_ log: ServerLog, _ initialTables: SyncedTables) async throws(SyncError) {
        var tables = initialTables
        let listener = Task(executorPreference: Self.thread) { [doorbell] in
            try? await log.listen { doorbell.ring() }
            doorbell.ring()
        }
        defer { listener.cancel() }
        let generation = watchdog.watchNewConnection()
        log.whenClosed { [doorbell, watchdog] in
            watchdog.closed(generation: generation)
            doorbell.ring()
        }
        do throws(SyncError) {
            while !Task.isCancelled {
                if log.isClosed { throw Self.closedByServer(url) }
                statusValue.value = .syncing
                do {
                    tables = try current(tables)
                    try await passWithDeadline(log, tables)
                } catch where error.isLockBusy {
                    // The connection to PostgreSQL is fine: keep it, and try the pass again.
                    await waitForLock(error)
                    continue
                } catch where error.code == .schemaMismatch {
                    // Other replicas are on a newer schema: this pass uploaded, applying waits
                    // until this database migrates (noticed by its schema version).
                    statusValue.value = .waiting(error, retryIn: pollInterval)
                    await doorbell.wait(timeout: pollInterval)
                    continue
                }
                statusValue.value = .idle
                await doorbell.wait(timeout: pollInterval)
            }
            await log.close()
        } catch {
            await log.close()
            if Task.isCancelled { return }
            throw error
        }
    }

    /// How long sync waits before trying again when another writer holds the database's lock
    /// (on top of the store's busy timeout, which a write already waited).
    static let lockRetryDelay = Duration.seconds(1)

    /// `tables`, or the tables read again if the schema changed since (a migration by this
    /// process or another).
    private func current(_ tables: SyncedTables) throws(SyncError) -> SyncedTables {
        let version = try reading { connection in try SyncedTables.schemaVersion(connection) }
        guard version != tables.schemaVersion else { return tables }
        return try reading { connection in try SyncedTables(self.tables, connection) }
    }

    /// Reports that another writer holds the lock, and waits before the next try.
    private func waitForLock(_ error: SyncError) async {
        statusValue.value = .waiting(error, retryIn: Self.lockRetryDelay)
        try? await Task.sleep(for: Self.lockRetryDelay)
    }

    private func connect() async throws(SyncError) -> (ServerLog, SyncedTables) {
        let (tables, position, outboxHigh) = try local { connection in
            let tables = try SyncedTables(self.tables, connection)
            let position = try ReplicaState.open(tables, connection)
            return (tables, position, try ReplicaState.highestOutboxSeq(connection))
        }
        let log = try await Self.withDeadline(url, abandoned: { log in await log.close() }) { [url] () async throws -> ServerLog in try await ServerLog.connect(url) }
        let stored = try await log.uploadedThrough(origin: position.origin)
        guard stored <= outboxHigh else {
            await log.close()
            throw SyncError(.duplicateOrigin, "the server holds changes #1–\(stored) from this database's origin \(position.origin), but this file made only \(outboxHigh): it is a copy of another replica's file; give it its own origin with `signalstore sync --new-origin` (SyncClient.renewOrigin())")
        }
        do {
            try noteUploaded(through: stored)
        } catch {
            await log.close()
            throw SyncError(error)
        }
        return (log, tables)
    }

    /// Notes that the server holds this replica's entries through outbox seq `stored` (some
    /// may have gone up just before a crash or a cut link), in a write only when that is news.
    private func noteUploaded(through stored: Int64) throws(SyncError) {
        let known = try reading { connection in try ReplicaState.read(connection)?.uploadedThrough }
        guard let known, stored > known else { return }
        try local { connection in
            guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            position.uploadedThrough = max(position.uploadedThrough, stored)
            try ReplicaState.save(position, connection)
        }
    }

    /// How long a round may go without progress (an answer from PostgreSQL, a batch applied)
    /// before the link counts as dead: a link that goes silent (a cable pulled, a proxy that
    /// drops packets) fails no query by itself. A round that moves never times out, however
    /// big the transaction it carries.
    static let answerTimeout = Duration.seconds(8)

    /// The error of a connection that the server closed.
    private static func closedByServer(_ url: PostgresURL) -> SyncError {
        SyncError(.unreachable, "PostgreSQL at \(url.host):\(url.port) closed the connection (a restart, or an administrator); sync reconnects")
    }

    /// ``pass(_:_:)``, or ``SyncError/unreachable`` after ``answerTimeout`` without progress
    /// or as soon as the connection closes; the connection is closed then, which fails the
    /// query that waits, and a query the driver leaves suspended is left behind.
    private func passWithDeadline(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) {
        watchdog.touch()
        try await Self.withDeadline(url, watchdog: watchdog, onTimeout: { log.abort() }) {
            try await self.pass(log, tables)
        }
    }

    /// Runs `body`, or throws ``SyncError/unreachable`` once ``answerTimeout`` passed
    /// without it finishing, or, with a `watchdog`, without it touching the watchdog or once
    /// the watchdog's connection closed (after calling `onTimeout`, which should make `body`
    /// fail).
    ///
    /// `body` runs in a task of its own that is cancelled, not awaited, on timeout: the driver
    /// can leave an operation on a connection that was cut during its startup suspended for
    /// good, and sync must go on. A value it returns after the caller stopped waiting goes to
    /// `abandoned` (a connection made just after a cancellation is closed there).
    static func withDeadline<Result: Sendable>(
        _ url: PostgresURL, watchdog: Watchdog = Watchdog(), onTimeout: @escaping @Sendable () -> Void = {},
        abandoned: @escaping @Sendable (Result) async -> Void = { _ in },
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws(SyncError) -> Result {
        let outcome = Locked<CheckedContinuation<Result, any Error>?>(nil)
        @Sendable func finish(_ result: Swift.Result<Result, any Error>) -> Bool {
            guard let continuation = outcome.withLock({ continuation in defer { continuation = nil }; return continuation }) else { return false }
            continuation.resume(with: result)
            return true
        }
        let work = Locked<Task<Void, Never>?>(nil)
        let timer = Locked<Task<Void, Never>?>(nil)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    outcome.withLock { $0 = continuation }
                    // A cancellation that came before the continuation was stored found nothing
                    // to finish; the flag it set is seen here.
                    if Task.isCancelled {
                        _ = finish(.failure(CancellationError()))
                        return
                    }
                    work.withLock { $0 = Task(executorPreference: thread) {
                        do {
                            let value = try await body()
                            // Too late (cancelled, or timed out): nobody takes it, so let it go here.
                            if !finish(.success(value)) { await abandoned(value) }
                        } catch {
                            _ = finish(.failure(error))
                        }
                        timer.withLock { $0 }?.cancel()
                    } }
                    timer.withLock { $0 = Task(executorPreference: thread) {
                        guard let verdict = await watchdog.waitForSilence(answerTimeout) else { return }
                        let error = verdict == .closed ? closedByServer(url) : SyncError(
                            .unreachable, "PostgreSQL at \(url.host):\(url.port) did not answer for \(answerTimeout.formattedSeconds); sync reconnects"
                        )
                        if finish(.failure(error)) {
                            onTimeout()
                            work.withLock { $0 }?.cancel()
                        }
                    } }
                }
            } onCancel: {
                if finish(.failure(CancellationError())) { work.withLock { $0 }?.cancel() }
            }
        } catch {
            throw SyncError(error)
        }
    }

    /// One round: upload everything pending, then apply everything new on the server.
    private func pass(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) {
        try await upload(log, tables)
        try await download(log, tables)
        let pending = try reading { connection -> Int64 in
            guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            return try Outbox.count(after: position.uploadedThrough, connection)
        }
        progressValue.value.pendingUpload = pending
        // The download went on until the log had nothing more (a batch short of full).
        progressValue.value.behind = 0
    }

    /// Uploads the outbox a batch at a time. Each batch goes up in a PostgreSQL transaction
    /// that first applies whatever other replicas uploaded before it (holding the log's lock,
    /// so nothing else can come in between): this replica's changes then always come after
    /// everything it has applied, which the conflict rule needs. A replica whose schema is
    /// behind the log's cannot apply it, and uploads all the same (its changes are checked
    /// where the log puts them, as every replica checks them).
    private func upload(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) {
        while true {
            try stampPending(tables)
            let (waiting, origin) = try reading { connection -> (Int64, String) in
                guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                return (try Outbox.count(after: position.uploadedThrough, connection), position.origin)
            }
            guard waiting > 0 else { return }
            let (stored, count) = try await log.upload(origin: origin) { _, stored in
                try self.noteUploaded(through: stored)
                do {
                    try await self.download(log, tables)
                } catch let error as SyncError where error.code == .schemaMismatch {
                    // Applying waits for this database's migration; its own changes go up.
                }
                return try self.reading { connection in try Outbox.pending(after: stored, limit: Self.batchSize, connection) }
            }
            watchdog.touch()
            // Counted first: the server has them even if noting it here waits for a lock.
            progressValue.value.uploaded += count
            try noteUploaded(through: stored)
            if count == 0 { return }
        }
    }

    private func download(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) {
        while true {
            let (cursor, origin) = try reading { connection -> (Int64, String) in
                guard let position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                return (position.serverCursor, position.origin)
            }
            let (entries, through) = try await log.download(after: cursor, own: origin, tables: tables.names, limit: Self.batchSize)
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
            // A batch short of full was everything the log held: no need to ask again.
            if entries.count < Self.batchSize { return }
        }
    }

    /// What applying a batch did.
    private struct BatchOutcome {
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
    private func apply(_ entries: [RemoteEntry], through: Int64, _ tables: SyncedTables) throws(SyncError) -> BatchOutcome {
        let previousEcho = appliedThrough.withLock { $0 }
        do {
            return try local { connection -> BatchOutcome in
                guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                let before = position.stampedThrough
                try Outbox.stampPending(tables, at: &position, connection)
                var outcome = BatchOutcome(stampedLocal: position.stampedThrough > before)
                let applier = RemoteApplier(tables: tables, connection: connection, origin: position.origin)
                // This replica's own entries, passed in log order: no longer pending.
                var ownPassed: Int64?
                for entry in entries {
                    if entry.origin == position.origin {
                        ownPassed = entry.entry.originSeq
                        continue
                    }
                    if let seq = ownPassed {
                        try ReplicaState.confirmUploaded(through: seq, origin: position.origin, connection)
                        ownPassed = nil
                    }
                    outcome.downloaded += 1
                    if try applier.apply(entry) == .applied { outcome.applied += 1 }
                    position.clock = max(position.clock, entry.entry.clock)
                }
                if let seq = ownPassed { try ReplicaState.confirmUploaded(through: seq, origin: position.origin, connection) }
                if outcome.downloaded > 0 { try applier.settlePending() }
                outcome.conflicts = applier.conflicts
                position.serverCursor = through
                position.stampedThrough = try Journal.highestSeq(connection)
                try ReplicaState.save(position, connection)
                // Set before the commit publishes the echo to the doorbell's subscriber.
                appliedThrough.withLock { $0 = position.stampedThrough }
                return outcome
            }
        } catch {
            appliedThrough.withLock { $0 = previousEcho }
            throw error
        }
    }

    /// Reads the conflicts again into ``conflicts``.
    func refreshConflictList() {
        if let all = try? reading(ConflictLog.all) { conflictsValue.value = all }
    }

    /// Stamps new journal entries into the outbox, in a write transaction only when there are
    /// any: a pass that finds nothing new writes nothing.
    private func stampPending(_ tables: SyncedTables) throws(SyncError) {
        let (stamped, head) = try reading { connection in
            (try ReplicaState.read(connection)?.stampedThrough, try Journal.highestSeq(connection))
        }
        guard let stamped else { throw SyncError(store: .closed) }
        guard head > stamped else { return }
        try local { connection in
            guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
            let before = position
            try Outbox.stampPending(tables, at: &position, connection)
            if position != before { try ReplicaState.save(position, connection) }
        }
    }

    /// Runs `body` on a read-only connection, beside the writer.
    private func reading<Result>(_ body: (Connection) throws -> Result) throws(SyncError) -> Result {
        do {
            return try store.readConnection(body)
        } catch {
            throw SyncError(error)
        }
    }

    /// Runs `body` in one local write transaction; its journal entries are published on commit.
    private func local<Result>(_ body: (Connection) throws -> Result) throws(SyncError) -> Result {
        do {
            return try store.writeTransaction(body)
        } catch {
            throw SyncError(error)
        }
    }
}
#endif
