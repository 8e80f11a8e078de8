#if SIGNALSTORE_SYNC
// One connection's conversation with the log: connect, the lock, uploads, listening; downloads are in ServerLog+Download, compaction in ServerLog+Compact, uploads' checks in ServerLog+Upload, scopes in ServerLog+Scopes.
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The server's half of sync: the ordered log of every replica's changes in PostgreSQL, read
/// and written over one connection.
///
/// The tables (in the URL's schema; see the SyncDesign article):
/// - `log`: one row per change, at a `position` assigned in commit order, unique by
///   `(origin, origin_seq)`.
/// - `counter`: one row, the next position. An upload holds its row lock until it commits, so
///   positions are handed out in commit order and a reader's cursor can never pass a change
///   that is still to appear (PostgreSQL sequences are not commit order).
/// - `origins`: per replica, the highest `origin_seq` stored (where a retried upload resumes)
///   and the role it belongs to.
///
/// A replica writes none of them itself: the server's `lock_log` and `append` functions do
/// (``ServerLogSQL``), which assign positions, keep an origin to its role and check each entry.
///
/// A deployment with scopes (`signalstore sync setup --scope-column`, ``ScopedServer``) adds
/// the scope of each entry, grants and row-level security; see the SyncDesign article.
struct ServerLog: Sendable {
    let connection: PostgresConnection
    let url: PostgresURL
    let logger: Logger
    /// Whether the server syncs by scope, and what this connection's role sees.
    let deployment: ServerDeployment

    /// The `NOTIFY` channel: a doorbell that says the log may have grown (with scopes: that
    /// an entry of a shared table came).
    var channel: String { "\(url.schema)_log" }

    /// Connects and creates the sync tables if they are missing.
    static func connect(_ url: PostgresURL, timeout: Duration = .seconds(10)) async throws(SyncError) -> ServerLog {
        var logger = Logger(label: "SignalStoreSync")
        logger.logLevel = .critical
        let tls = try TLSSettings.make(for: url)
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database, tls: tls
        )
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            do {
                try await boundLingeringSessions(connection, logger: logger)
                try await createTables(connection, schema: url.schema, logger: logger)
                let deployment = try await ServerDeployment.read(connection, schema: url.schema, logger: logger)
                return ServerLog(connection: connection, url: url, logger: logger, deployment: deployment)
            } catch {
                // A role that may not use the tables: the connection must still be closed.
                try? await connection.close()
                throw error
            }
        } catch {
            throw ServerErrors.describe(error, url: url, while: "connecting to")
        }
    }

    func close() async {
        try? await connection.close()
    }

    /// Asks the server (PostgreSQL 14 and later) to check every second during a statement
    /// whether this session's client is still there: a link cut while a statement runs (one
    /// that waits for a lock, say) otherwise leaves a session that holds its locks until the
    /// statement ends, and every other replica's upload waits behind it in its short turns.
    private static func boundLingeringSessions(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.queryUnlessClosed("""
            SELECT CASE WHEN current_setting('server_version_num')::int >= 140000
                        THEN set_config('client_connection_check_interval', '1s', false) END
            """, logger: logger)
    }

    /// Whether the connection is closed (by either side).
    var isClosed: Bool { connection.isClosed }

    /// Calls `action` once the connection closes, whoever closes it: a server restart shows
    /// here at once, while a query on the dead connection might wait for a deadline.
    func whenClosed(_ action: @escaping @Sendable () -> Void) {
        connection.closeFuture.whenComplete { _ in action() }
    }

    /// Closes the connection without waiting: whatever waits on it fails at once. For a link
    /// that stopped answering.
    func abort() {
        connection.close().whenComplete { _ in }
    }

    var schema: String { url.schema }

    /// Creates the sync tables and the upload path (``ServerLogSQL``) where missing. A role of
    /// a deployment with scopes may create nothing, and finds them made by `signalstore sync
    /// setup`; on such a deployment from an earlier version, only the owner can install the
    /// upload path, and then takes the old write privileges from the roles too.
    private static func createTables(_ connection: PostgresConnection, schema: String, logger: Logger) async throws {
        guard try await !hasTables(connection, schema: schema, logger: logger) else { return }
        do {
            try await connection.transactionUnlessClosed(logger: logger) { connection in
                // Two replicas starting at once must not race on CREATE … IF NOT EXISTS; the one that
                // waited finds the tables made, and takes no lock on them (an ALTER would, and
                // deadlocked with the first one's upload). The wait is bounded: a holder whose
                // session lingers (its link cut mid-creation) fails this attempt, which sync
                // retries, instead of holding this replica silent.
                try await connection.queryUnlessClosed("SELECT set_config('lock_timeout', '10s', true)", logger: logger)
                try await connection.queryUnlessClosed("SELECT pg_advisory_xact_lock(hashtext(\(schema)))", logger: logger)
                guard try await !hasTables(connection, schema: schema, logger: logger) else { return }
                for statement in tableStatements(schema) + ServerLogSQL.statements(schema: schema) {
                    try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                if try await isScoped(connection, schema: schema, logger: logger) {
                    try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: ScopedServerSQL.upgradedPrivileges(schema: schema)), logger: logger)
                }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
            guard try await isScoped(connection, schema: schema, logger: logger) else { throw error }
            throw SyncError(.refused, "the sync tables in schema '\(schema)' are from an earlier SignalStore; their owner upgrades them once with `signalstore sync setup --postgres ADMIN_URL --scope-column COLUMN --db DATABASE`")
        }
    }

    /// The log, the counter and the origins, and the columns later versions added.
    private static func tableStatements(_ schema: String) -> [String] {
        [
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            """
            CREATE TABLE IF NOT EXISTS \(schema).log (
                position bigint PRIMARY KEY, origin text NOT NULL, origin_seq bigint NOT NULL,
                hlc bigint NOT NULL, tbl text NOT NULL, row_key text NOT NULL, op text NOT NULL,
                col text, payload text, committed_at timestamptz NOT NULL DEFAULT now(),
                scope text, previous_scope text, carried text, uploaded_by name NOT NULL DEFAULT current_user,
                UNIQUE (origin, origin_seq))
            """,
            "CREATE TABLE IF NOT EXISTS \(schema).counter (id int PRIMARY KEY CHECK (id = 1), next bigint NOT NULL)",
            "INSERT INTO \(schema).counter VALUES (1, 1) ON CONFLICT DO NOTHING",
            """
            CREATE TABLE IF NOT EXISTS \(schema).origins (
                origin text PRIMARY KEY, uploaded_through bigint NOT NULL, uploaded_by name NOT NULL DEFAULT current_user)
            """,
            // Each entry's scope (NULL: a shared table's, or a deployment without scopes), the
            // history a move carries, and who uploaded it: added to logs made before scopes.
            """
            ALTER TABLE \(schema).log ADD COLUMN IF NOT EXISTS scope text, ADD COLUMN IF NOT EXISTS previous_scope text,
                ADD COLUMN IF NOT EXISTS carried text, ADD COLUMN IF NOT EXISTS uploaded_by name NOT NULL DEFAULT current_user
            """,
            "ALTER TABLE \(schema).origins ADD COLUMN IF NOT EXISTS uploaded_by name NOT NULL DEFAULT current_user",
        ]
    }

    /// Whether `signalstore sync setup --scope-column` prepared the schema.
    private static func isScoped(_ connection: PostgresConnection, schema: String, logger: Logger) async throws -> Bool {
        for try await present in try await connection.queryUnlessClosed(
            "SELECT to_regclass(\(ScopedServer.qualified(schema, "scoped_tables"))) IS NOT NULL", logger: logger
        ).decode(Bool.self) { return present }
        return false
    }

    /// Whether the sync tables are all there, with the columns and the upload path this
    /// version uses.
    private static func hasTables(_ connection: PostgresConnection, schema: String, logger: Logger) async throws -> Bool {
        var query: PostgresQuery = """
            SELECT count(*) FROM information_schema.columns WHERE table_schema = \(schema)
               AND ((table_name = 'log' AND column_name IN ('uploaded_by', 'previous_scope', 'carried', 'overlap')) OR (table_name = 'origins' AND column_name = 'uploaded_by')
                    OR (table_name = 'counter' AND column_name = 'next'))
            """
        query.sql = "SELECT (\(query.sql)) = 6 AND \(ServerLogSQL.installedCheck(schema: schema))"
        for try await present in try await connection.queryUnlessClosed(query, logger: logger).decode(Bool.self) { return present }
        return false
    }

    /// The highest `origin_seq` the server holds from `origin`; 0 for none.
    func uploadedThrough(origin: String) async throws(SyncError) -> Int64 {
        do {
            let rows = try await connection.queryUnlessClosed("SELECT uploaded_through FROM \(unescaped: schema).origins WHERE origin = \(origin)", logger: logger)
            for try await seq in rows.decode(Int64.self) { return seq }
            return 0
        } catch {
            throw ServerErrors.describe(error, url: url, while: "reading from")
        }
    }

    /// Appends this replica's next entries to the log in one transaction, and returns the
    /// highest `origin_seq` the server now holds from `origin` and how many entries went up.
    ///
    /// The transaction holds the log's counter lock from the start, so no other upload can
    /// commit meanwhile: `catchUp` is called with what the server already holds from
    /// `origin`, applies everything up to the log's head (which cannot move), and returns the entries to
    /// append, which therefore come after every change this replica has applied. That is what
    /// makes the conflict rule hold (see ``ConflictResolver``). Entries the server already has
    /// (a retry after a cut link or a crash) are skipped, never stored twice.
    ///
    /// The server decides what enters the log (``ServerLogSQL``): the lock and the append are
    /// its functions, which assign the positions, check that `origin` is this role's, and
    /// check each entry. An entry it refuses (a scope the role holds no grant for, a table or
    /// column it does not sync, a value over its size limit) is recorded in its `refusals`
    /// table and returned; the rest are stored.
    ///
    /// The log's lock is waited for at most `lockWait` in all: another replica's upload holds
    /// the log then, and the transaction rolls back with nothing stored (`nil`). The caller
    /// applies what is new outside the lock and tries again, so the catch-up under the lock
    /// stays short, and no wait is long enough to look like a dead link. (Waiting in
    /// PostgreSQL's queue instead, 50 replicas queued 24 deep, each catching up under the lock
    /// on every upload made while it waited, and some waited past the 8 s round deadline.)
    ///
    /// `lock_timeout` alone does not bound that wait: it limits each wait for one holder, and
    /// every upload's update of the counter makes a new version of its row, for which the
    /// waiters queue afresh. Behind a queue of uploads that each held the lock for less than
    /// `lockWait`, an upload waited through all of them (2–8 of 50 replicas in each of 5 runs of
    /// the 50-replica benchmark that kept their output, until the round deadline cut their
    /// connections). The statement that takes the lock runs under a `statement_timeout` of
    /// `lockWait` too, and gives the rest of the transaction back the session's own (the
    /// running statement's timer is set when it starts, so only later statements see the
    /// change).
    func upload(origin: String, lockWait: Duration, catchUp: (_ stored: Int64) async throws -> [SyncEntry]) async throws(SyncError) -> Upload? {
        do {
            return try await transaction { connection in
                let stored = try await lockLog(connection, origin: origin, waitingAtMost: lockWait)
                let fresh = try await catchUp(stored).filter { $0.originSeq > stored }
                guard !fresh.isEmpty else { return Upload(stored: stored, count: 0, refused: []) }
                return try await append(fresh, origin: origin, connection)
            }
        } catch let error where Self.isLockTimeout(error) {
            return nil
        } catch {
            throw ServerErrors.describe(error, url: url, while: "uploading to")
        }
    }

    /// Takes the log's lock (the counter's row, through the server's `lock_log`) in
    /// `connection`'s transaction and returns the highest origin seq the server holds from
    /// `origin`, or throws ``LockNotGranted`` when `wait` passed first (the `upload` above
    /// says how the wait is bounded). `lock_timeout` stays `wait` for the rest of the
    /// transaction; `statement_timeout` goes back to the session's own.
    private func lockLog(_ connection: PostgresConnection, origin: String, waitingAtMost wait: Duration) async throws -> Int64 {
        let setting = Self.setting(wait)
        do {
            try await connection.queryUnlessClosed("SELECT set_config('lock_timeout', \(setting), true), set_config('statement_timeout', \(setting), true)", logger: logger)
            var stored: Int64 = 0
            for try await (value, _) in try await connection.queryUnlessClosed("""
                SELECT l.stored, set_config('statement_timeout', (SELECT reset_val FROM pg_settings WHERE name = 'statement_timeout'), true)
                FROM \(unescaped: schema).lock_log(\(origin)) AS l
                """, logger: logger
            ).decode((Int64, String).self) { stored = value }
            return stored
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.statementTimeout {
            throw LockNotGranted()
        }
    }

    /// The log's lock was not granted within an upload's wait.
    private struct LockNotGranted: Error {}

    /// SQLSTATE `query_canceled`: a statement's `statement_timeout` passed (or an
    /// administrator's `pg_cancel_backend`, after which trying again is right too).
    private static let statementTimeout = "57014"

    /// A duration as a PostgreSQL time setting, in whole milliseconds (at least 1: `0` would
    /// mean no limit).
    private static func setting(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(max(1, milliseconds))ms"
    }

    /// Whether a transaction failed because a lock was not granted in time: the log's
    /// (``lockCounter(_:waitingAtMost:)``), or any within `lock_timeout` (SQLSTATE 55P03). It
    /// rolled back whole. A statement that ran past the session's own `statement_timeout` is
    /// an error, not a busy lock: trying again would fail the same way.
    private static func isLockTimeout(_ error: any Error) -> Bool {
        error is LockNotGranted || (error as? PSQLError)?.serverInfo?[.sqlState] == "55P03"
    }

    /// Calls `ring` once each `LISTEN` is in place, then whenever an upload rings one of
    /// `channels`, until the connection closes.
    func listen(on channels: [String], _ ring: @escaping @Sendable () -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in channels {
                group.addTask {
                    try await connection.listen(on: name) { notifications in
                        // Listening from here on: a pass that starts now misses no change, though
                        // one committed while the LISTEN was on its way sent its NOTIFY to nobody.
                        ring()
                        for try await _ in notifications { ring() }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Runs `body` in one PostgreSQL transaction: `BEGIN`, then `COMMIT`, or `ROLLBACK` if
    /// `body` throws while the session lives (``PostgresConnection/transactionUnlessClosed(logger:_:)``).
    private func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await connection.transactionUnlessClosed(logger: logger) { connection in try await body(connection) }
    }
}
#endif
