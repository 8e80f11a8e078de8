import Foundation

/// A SQLite database with a durable, ordered change feed that sees every writer.
///
/// Opening a store applies the migrations, then installs (or repairs) triggers that journal
/// every change to every user table, in the same transaction as the change, whoever makes it:
/// this process, another process, the `signalstore` CLI, a `sqlite3` shell. The feed is
/// ``changes(since:)``.
///
/// ```swift
/// let store = try Store(path: "app.sqlite", migrations: URL(fileURLWithPath: "Migrations"))
/// store.changes(since: 0).subscribe(onValue: { print($0) })
/// try store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(3), .integer(42)])
/// ```
///
/// ## Concurrency
/// A store is `Sendable`. One writer connection, behind one lock, runs every write in a
/// `BEGIN IMMEDIATE` transaction, except a model's property set outside a transaction: one
/// `UPDATE` in SQLite's autocommit mode, which takes the write lock when it starts, as
/// `BEGIN IMMEDIATE` does. Reads (``find(_:id:)``, ``all(_:where:arguments:orderBy:)``,
/// ``read(_:)``, query signals) run on a pool of read-only connections beside it: each reads a
/// snapshot of the last commit and never waits for the writer, however long its transaction.
/// Code inside ``transaction(_:)`` reads on the writer, so it sees its own writes.
///
/// Feed entries are delivered with no lock held, in `seq` order. A writer delivers its own
/// entries before ``execute(_:arguments:)`` returns, unless another thread is already
/// delivering; that thread then delivers them next. Commits by other connections are noticed by
/// checking `PRAGMA data_version` on a thread of the store's own: on Linux as soon as the
/// write-ahead log is written (an `inotify` watch; a commit of another process reaches live
/// objects within milliseconds), and every ``pollInterval`` (default 50 ms) in any case. Several
/// commits of other connections that land between two checks arrive together, in order.
public final class Store: Sendable {
    let database: StoreDatabase
    /// The read-only connections; `nil` for an in-memory store, whose database only its writer
    /// connection can see.
    let readers: ReaderPool?
    /// The live objects, behind their own lock (taken after the writer's when both are needed).
    let registry = Locked(ModelRegistry())
    /// The schema as last read, kept until it changes: what capture, the model check,
    /// relationships, live results' orderings, history, the CLI, the inspector and sync ask.
    package let schema: SchemaCache
    /// The model types already checked against their tables.
    let checkedModels = Locked<Set<ObjectIdentifier>>([])
    /// How many queries have read model objects (each `find`, `all` or related-object read
    /// runs one), so tests can check that a read of a graph costs one query per relationship.
    package let modelQueryCount = Locked(0)
    /// How many times a live result has read the rows a commit changed, so tests can check
    /// that a commit reaches only the results it concerns.
    package let resultsRowReadCount = Locked(0)
    /// How many times the router read the key columns of a batch's rows (tests count them).
    package let resultsKeyReadCount = Locked(0)
    /// Hands published batches to the live results they may concern.
    let resultsRouter: ResultsRouter
    /// The checked models' relationships, matched with their foreign keys.
    let relationships = Locked<[RelationshipID: ResolvedRelationship]>([:])
    let publisher: ChangePublisher
    /// Reads, applies and queues what each commit wrote (``CommitPublisher``).
    let commitPublisher: CommitPublisher
    private let poller: Locked<ChangePoller?>
    let errorSubject = PassthroughSubject<StoreError, Never>()

    /// The default number of read-only connections: the processor count, at least 2, at most 8.
    public static var defaultReaderCount: Int { ReaderPool.defaultCapacity }

    /// The database file, or `:memory:`.
    public let path: String
    /// How often the store checks for commits by other connections, whatever else woke it
    /// (on Linux, it also checks as soon as another connection writes the write-ahead log).
    public let pollInterval: Duration

    /// Opens (creating if needed) the database at `path` and applies the `.sql` migrations in
    /// `directory`.
    /// - Parameters:
    ///   - path: The database file. A new file is created with mode 0600.
    ///   - directory: The folder of `NNNN_description.sql` files.
    ///   - pollInterval: How often to check for commits by other connections.
    ///   - busyTimeout: How long a write waits for another connection's lock before failing
    ///     with ``SQLiteError/busy``.
    ///   - readers: The most read-only connections open at once (opened when first needed).
    /// - Throws: ``StoreError`` if the file cannot be opened or a migration fails.
    public convenience init(
        path: String,
        migrations directory: URL,
        pollInterval: Duration = .milliseconds(50),
        busyTimeout: Duration = .seconds(5),
        readers: Int = Store.defaultReaderCount
    ) throws(StoreError) {
        let migrations: [Migration]
        do { migrations = try Migration.load(from: directory) } catch { throw .migration(error) }
        try self.init(path: path, migrations: migrations, pollInterval: pollInterval, busyTimeout: busyTimeout, readers: readers)
    }

    /// Opens (creating if needed) the database at `path` and applies `migrations`.
    /// - Parameters:
    ///   - path: The database file. A new file is created with mode 0600.
    ///   - migrations: The migrations, versions 1, 2, 3, … without gaps.
    ///   - pollInterval: How often to check for commits by other connections.
    ///   - busyTimeout: How long a write waits for another connection's lock before failing
    ///     with ``SQLiteError/busy``.
    ///   - readers: The most read-only connections open at once (opened when first needed).
    /// - Throws: ``StoreError`` if the file cannot be opened or a migration fails.
    public convenience init(
        path: String,
        migrations: [Migration],
        pollInterval: Duration = .milliseconds(50),
        busyTimeout: Duration = .seconds(5),
        readers: Int = Store.defaultReaderCount
    ) throws(StoreError) {
        let connection: Connection
        let schema = SchemaCache()
        do {
            connection = try Self.openConnection(path: path, migrations: migrations, busyTimeout: busyTimeout, schema: schema)
        } catch {
            throw StoreError(error)
        }
        self.init(connection: connection, schema: schema, pollInterval: pollInterval, busyTimeout: busyTimeout, readers: readers)
    }

    /// Wraps an open connection whose journal and capture triggers are in place, with the
    /// schema cache they were installed through.
    init(connection: Connection, schema: SchemaCache, pollInterval: Duration, busyTimeout: Duration, readers readerCount: Int) {
        path = connection.path
        self.schema = schema
        self.pollInterval = pollInterval
        readers = path == ":memory:" ? nil : ReaderPool(path: path, capacity: max(1, readerCount), busyTimeout: busyTimeout)
        let state = StoreDatabase.State(connection: connection)
        state.ownEntries = OwnEntryCapture.install(on: connection)
        let highest = (try? Journal.highestSeq(connection)) ?? 0
        registry.withLock { $0.lastSeenSeq = highest }
        state.dataVersion = (try? Self.dataVersion(connection)) ?? 0
        state.changesAtLastPoll = connection.totalChanges
        state.schemaVersion = (try? connection.schemaVersion()) ?? 0
        database = StoreDatabase(state)
        resultsRouter = ResultsRouter()
        publisher = ChangePublisher(feed: Broadcaster(replayLimit: 0), router: resultsRouter)
        commitPublisher = CommitPublisher(registry: registry, delivery: publisher)
        poller = Locked(nil)
        if path != ":memory:" {
            let poller = ChangePoller(interval: pollInterval, walPath: path + "-wal") { [weak self] in self?.pollForExternalCommits() ?? .nothing }
            self.poller.withLock { $0 = poller }
        }
    }

    /// Opens a private in-memory database with `migrations` (nothing is written to disk, and no
    /// other connection can see it).
    public static func inMemory(migrations: [Migration]) throws(StoreError) -> Store {
        try Store(path: ":memory:", migrations: migrations)
    }

    /// Opens a private in-memory database with the `.sql` migrations in `directory`.
    public static func inMemory(migrations directory: URL) throws(StoreError) -> Store {
        try Store(path: ":memory:", migrations: directory)
    }

    deinit {
        close()
    }

    /// Closes the database, stops polling, and completes every change-feed subscription.
    /// Later calls fail with ``StoreError/closed``. Closing twice does nothing.
    public func close() {
        poller.withLock { poller in
            poller?.stop()
            poller = nil
        }
        // Readers close first: the last connection to close checkpoints the write-ahead log
        // into the database file and removes it, which only the writer can do.
        readers?.close()
        let wasOpen = database.withLock { state -> Bool in
            defer { state.connection = nil }
            return state.connection != nil
        }
        guard wasOpen else { return }
        let live = registry.withLock { $0.liveObjects }
        publisher.feed.send(.completed)
        publisher.commits.send(.completed)
        publisher.enqueue([.resultsCompleted])
        publisher.drain()
        live.forEach { $0._$model.completeAll() }
    }

    /// Whether the store is polling for commits by other connections (file stores, until closed).
    package var isPolling: Bool {
        poller.withLock { $0 != nil }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool {
        database.withLock { $0.connection == nil }
    }

    /// ``StoreOperations/execute(_:arguments:)``.
    func executeSQL(_ sql: String, arguments: [SQLiteValue]) throws(StoreError) -> Int {
        try write { state, connection in
            if arguments.isEmpty {
                try connection.executeKeepingPrepared(sql)
            } else {
                try connection.statement(sql).run(arguments)
            }
            let changes = connection.changes
            try captureSchemaChanges(state, connection)
            return changes
        }
    }

    /// Runs `body` in a write transaction, then publishes the new journal entries. Inside an
    /// open `transaction`, `body` joins it and publishing waits for the outermost commit.
    func write<Result>(_ body: (StoreDatabase.State, Connection) throws -> Result) throws(StoreError) -> Result {
        do {
            return try writing(body)
        } catch {
            throw StoreError(error)
        }
    }

    /// Runs `body`, which runs **one** statement, and publishes the new journal entries; inside
    /// an open `transaction`, `body` joins it as in ``write(_:)``.
    ///
    /// Outside a transaction the statement runs in SQLite's autocommit mode: it is its own
    /// transaction, so it needs neither `BEGIN IMMEDIATE` and `COMMIT` nor, since it fires the
    /// journal's triggers, a statement journal to undo it alone. Its entries are handed over as
    /// they are written (``OwnEntryCapture``), so none is read back. A model's property set is
    /// this. If another connection committed since the store last read the journal, the journal
    /// is read instead, as the poller would (``CommitPublisher/read(_:collected:)``), so entries are
    /// published once and in seq order. If
    /// that read fails, the write stands, the failure goes to ``errors``, and the store's next
    /// read of the journal (after its next write, or another connection's commit) starts where
    /// this one would have.
    func writeOneStatement<Result>(_ body: (StoreDatabase.State, Connection) throws -> Result) throws(StoreError) -> Result {
        do {
            return try writing(oneStatement: true, body)
        } catch {
            throw StoreError(error)
        }
    }

    /// ``write(_:)`` with errors as `body` threw them; with `oneStatement`, see
    /// ``writeOneStatement(_:)``.
    func writing<Result>(
        oneStatement: Bool = false,
        _ body: (StoreDatabase.State, Connection) throws -> Result
    ) throws -> Result {
        var unpublished: StoreError?
        let (result, joined) = try database.withLock { state -> (Result, Bool) in
            guard let connection = state.connection else { throw StoreError.closed }
            if state.transaction != nil { return (try body(state, connection), true) }
            if oneStatement {
                let (result, failure) = try writeInAutocommit(state, connection, body)
                unpublished = failure
                return (result, false)
            }
            // The new journal entries are read inside the write transaction (they are visible
            // to it), saving a separate read transaction after COMMIT; they are published only
            // once the commit succeeded.
            var written = CommitPublisher.NewChanges.unread
            let result: Result
            do {
                result = try connection.transaction { () throws -> Result in
                    let result = try body(state, connection)
                    written = try commitPublisher.read(connection)
                    return result
                }
            } catch {
                state.forgetSchemaVersion()
                throw error
            }
            commitPublisher.publish(written)
            return (result, false)
        }
        if !joined { publisher.drain() }
        if let unpublished { report(unpublished) }
        return result
    }

    /// The autocommit half of ``writeOneStatement(_:)``. Call with the writer's lock held.
    /// - Returns: `body`'s result, and the failure to read its entries, if any, to report once
    ///   the lock is released (the write itself stands).
    private func writeInAutocommit<Result>(
        _ state: StoreDatabase.State,
        _ connection: Connection,
        _ body: (StoreDatabase.State, Connection) throws -> Result
    ) throws -> (Result, StoreError?) {
        let capture = state.ownEntries
        capture?.isCollecting = true
        defer { capture?.isCollecting = false }
        let result: Result
        do {
            result = try body(state, connection)
        } catch {
            state.forgetSchemaVersion()
            throw error
        }
        do {
            commitPublisher.publish(try commitPublisher.read(connection, collected: capture?.collected))
            return (result, nil)
        } catch {
            return (result, StoreError(error))   // the next read starts where this one would have
        }
    }
}
