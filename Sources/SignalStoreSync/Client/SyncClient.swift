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

    let statusValue = MutableProperty(SyncStatus.stopped)
    let progressValue = MutableProperty(SyncProgress())
    let conflictsValue: MutableProperty<[SyncConflict]>
    /// When the round last heard from PostgreSQL or moved locally: the round deadline counts
    /// from here, so a long round that makes progress never counts as a dead link.
    let watchdog = Watchdog()
    let doorbell = Doorbell()
    private let pollInterval: Duration
    /// The journal seq through which local commits are this client's own applies of remote
    /// changes (their echo): they ring no doorbell, as there is nothing to upload.
    let appliedThrough = Locked<Int64>(0)
    /// The `NOTIFY` channels that ring for this replica: the log's, or with scopes the shared
    /// tables' and one per scope held (``followScopes(_:_:)`` sets them).
    let listenedChannels = Locked<[String]>([])

    /// Makes a client; nothing happens until ``run()`` or ``syncOnce()``.
    /// - Parameters:
    ///   - store: The store whose database this client syncs.
    ///   - url: The PostgreSQL server; its password is never printed.
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
            _ = try await pass(log, tables)
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
    /// their whole history: the conflict rule replays it in order. So do the tables that sync
    /// per scope (``SyncScopes``), whose moves between scopes a replica that is behind needs;
    /// with scopes, compact as the sync tables' owner.
    public func compactServerLog() async throws(SyncError) -> Int {
        try await onOwnThread { () async throws(SyncError) -> Int in try await compact() }
    }

    private func compact() async throws(SyncError) -> Int {
        let compactable = try reading { connection in try SyncedTables(self.tables, self.store.schema, connection).compactable }
        let log = try await Self.connectWithDeadline(url).log
        do {
            // A scoped table's history says where each row went: a replica that is behind
            // leaves a row by the move that an older entry made.
            let deleted = try await log.compact(tables: compactable.filter { log.deployment.scopeColumns[$0] == nil })
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
        var listening = listenedChannels.withLock { $0 }
        var listener = listen(log, on: listening)
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
                    tables = try await passWithDeadline(log, tables)
                    // A grant or revoke changed the scopes: their doorbells change too.
                    if case let channels = listenedChannels.withLock({ $0 }), channels != listening {
                        listener.cancel()
                        listening = channels
                        listener = listen(log, on: channels)
                    }
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

    /// Listens on `channels` in a task of its own (see ``follow(_:_:)``), ringing the doorbell.
    private func listen(_ log: ServerLog, on channels: [String]) -> Task<Void, Never> {
        Task(executorPreference: Self.thread) { [doorbell] in
            try? await log.listen(on: channels) { doorbell.ring() }
            doorbell.ring()
        }
    }

    /// How long sync waits before trying again when another writer holds the database's lock
    /// (on top of the store's busy timeout, which a write already waited).
    static let lockRetryDelay = Duration.seconds(1)

    /// `tables`, or the tables read again if the schema changed since (a migration by this
    /// process or another).
    private func current(_ tables: SyncedTables) throws(SyncError) -> SyncedTables {
        let version = try reading { connection in try connection.schemaVersion() }
        guard version != tables.schemaVersion else { return tables }
        var current = try reading { connection in try SyncedTables(self.tables, self.store.schema, connection) }
        current.scopes = tables.scopes
        return current
    }

    /// Reports that another writer holds the lock, and waits before the next try.
    private func waitForLock(_ error: SyncError) async {
        statusValue.value = .waiting(error, retryIn: Self.lockRetryDelay)
        try? await Task.sleep(for: Self.lockRetryDelay)
    }

    private func connect() async throws(SyncError) -> (ServerLog, SyncedTables) {
        var (tables, position, outboxHigh) = try local { connection in
            let tables = try SyncedTables(self.tables, self.store.schema, connection)
            let position = try ReplicaState.open(tables, connection)
            return (tables, position, try Outbox.highestSeq(connection))
        }
        let (log, stored) = try await Self.connectWithDeadline(url, origin: position.origin)
        guard stored <= outboxHigh else {
            await log.close()
            throw SyncError(.duplicateOrigin, "the server holds changes #1–\(stored) from this database's origin \(position.origin), but this file made only \(outboxHigh): it is a copy of another replica's file; give it its own origin with `signalstore sync --new-origin` (SyncClient.renewOrigin())")
        }
        tables.scopes.columns = log.deployment.scopeColumns
        listenedChannels.withLock { $0 = [log.deployment.seesEverything && log.deployment.isScoped ? log.everyEntryChannel : log.channel] }
        do {
            try noteUploaded(through: stored)
            // Refusals a crash kept this replica from giving up, read with the connect's
            // deadline: a server that stops answering (a link cut mid-query) must not hold it.
            let firstPending = try reading { connection in try Outbox.pending(after: 0, limit: 1, connection).first?.originSeq }
            if let firstPending {
                let refusals = try await Self.withDeadline(url, while: "connecting", onTimeout: { log.abort() }) { [origin = position.origin] in
                    try await log.refusals(origin: origin, after: firstPending - 1)
                }
                try giveUp(refusals, stored: stored, tables)
            }
        } catch {
            await log.close()
            throw SyncError(error)
        }
        return (log, tables)
    }

}
#endif
