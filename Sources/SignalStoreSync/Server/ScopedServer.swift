#if SIGNALSTORE_SYNC
import Logging
import PostgresNIO

/// The server side of scopes: what `signalstore sync setup --scope-column` installs in the
/// sync tables' schema, and the grants that `signalstore sync grant` and `revoke` change.
///
/// PostgreSQL enforces every boundary, for this client and any other (`psql` with a role's
/// password included); the client's word counts for nothing:
/// - A trigger on the log (`scope_entry`, `SECURITY DEFINER`) computes each new entry's scope
///   from the entry and the server's own record of each row's scope (`row_scopes`): an insert's
///   or a move's scope is the new value of the scope column, any other change's is the scope
///   the log last gave the row. It refuses (SQLSTATE ``refusalState``) an entry whose scope,
///   or whose row's previous scope, the uploading role holds no grant for.
/// - Row-level security lets a role read only the log entries of shared tables and of its
///   scopes (an entry that moved a row out of its scope included, so the row leaves), its
///   own grants, and its own `origins` and `refusals` rows. It writes nothing itself: it
///   appends through the server's functions (``ServerLogSQL``). The tables' owner (the
///   administrator) is not bound, and sees everything.
enum ScopedServer {
    /// The SQLSTATE of a refused entry (a class of its own, so no PostgreSQL error is taken
    /// for one).
    static let refusalState = "SS001"

    /// `schema.table`, for `to_regclass`.
    static func qualified(_ schema: String, _ table: String) -> String { "\(schema).\(table)" }

    /// A synced table as the server knows it: the columns it takes entries of, and how many
    /// values its rows' keys have.
    struct TableFacts: Sendable {
        var name: String
        var columns: [String]
        var keyLength: Int
    }

    /// Installs scopes in `log`'s schema (the connection must be the tables' owner or a
    /// superuser), for `scopeColumns` (table → its scope column), and lists `tables` as the
    /// ones the server takes entries of. Idempotent: re-running it updates the functions and
    /// policies, adds tables and columns, takes the write privileges of earlier versions from
    /// the roles, and gives the entries already in the log their scopes, as the trigger would
    /// have. `maxValueBytes` sets the size limit of a value (when `nil`: unchanged, or
    /// ``ServerLogSQL/defaultValueLimit`` on a server that had none).
    static func setUp(_ log: ServerLog, scopeColumns: [String: String], tables: [TableFacts], maxValueBytes: Int64?) async throws(SyncError) {
        do {
            try await log.connection.transactionUnlessClosed(logger: log.logger) { connection in
                try await connection.queryUnlessClosed("SELECT pg_advisory_xact_lock(hashtext(\(log.schema)))", logger: log.logger)
                for statement in ScopedServerSQL.statements(schema: log.schema) {
                    try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: statement), logger: log.logger)
                }
                try await connection.queryUnlessClosed("DELETE FROM \(unescaped: log.schema).scoped_tables WHERE tbl <> ALL(\(Array(scopeColumns.keys))::text[])", logger: log.logger)
                for (table, column) in scopeColumns {
                    try await connection.queryUnlessClosed("""
                        INSERT INTO \(unescaped: log.schema).scoped_tables VALUES (\(table), \(column))
                        ON CONFLICT (tbl) DO UPDATE SET col = excluded.col
                        """, logger: log.logger)
                }
                for table in tables {
                    try await connection.queryUnlessClosed("""
                        INSERT INTO \(unescaped: log.schema).synced_tables VALUES (\(table.name), \(table.columns)::text[], \(Int32(table.keyLength)))
                        ON CONFLICT (tbl) DO UPDATE SET columns = ARRAY(SELECT DISTINCT unnest(synced_tables.columns || excluded.columns) ORDER BY 1),
                            key_length = excluded.key_length
                        """, logger: log.logger)
                }
                try await connection.queryUnlessClosed("""
                    UPDATE \(unescaped: log.schema).limits SET max_value_bytes = coalesce(\(maxValueBytes)::bigint, max_value_bytes, \(ServerLogSQL.defaultValueLimit)) WHERE id = 1
                    """, logger: log.logger)
                try await connection.queryUnlessClosed("SELECT \(unescaped: log.schema).assign_scopes()", logger: log.logger)
                try await connection.queryUnlessClosed("SELECT pg_notify(\(log.channel), '')", logger: log.logger)
            }
        } catch {
            throw ServerErrors.describe(error, url: log.url, while: "setting up scopes on")
        }
    }

    /// Lets `role` read and write `scopes` (and the shared tables), with the privileges on the
    /// sync tables that a replica needs. Running replicas of the role take it up at once.
    static func grant(_ log: ServerLog, role: String, scopes: [String]) async throws(SyncError) {
        try await change(log, role: role, while: "granting scopes on") { connection in
            for privileges in ScopedServerSQL.replicaPrivileges(schema: log.schema) {
                try await connection.queryUnlessClosed("SELECT format(\(privileges), \(role))", logger: log.logger).decodeAndRun(connection, log.logger)
            }
            try await connection.queryUnlessClosed("""
                INSERT INTO \(unescaped: log.schema).grants (role, scope) SELECT \(role), unnest(\(scopes)::text[]) ON CONFLICT DO NOTHING
                """, logger: log.logger)
        }
    }

    /// Takes `scopes` from `role`: its running replicas remove those scopes' rows at once.
    static func revoke(_ log: ServerLog, role: String, scopes: [String]) async throws(SyncError) {
        try await change(log, role: role, while: "revoking scopes on") { connection in
            try await connection.queryUnlessClosed(
                "DELETE FROM \(unescaped: log.schema).grants WHERE role = \(role) AND scope = ANY(\(scopes)::text[])", logger: log.logger
            )
        }
    }

    /// Every grant, by role then scope.
    static func grants(_ log: ServerLog) async throws(SyncError) -> [(role: String, scope: String)] {
        do {
            var grants: [(role: String, scope: String)] = []
            for try await (role, scope) in try await log.connection.queryUnlessClosed(
                "SELECT role::text, scope FROM \(unescaped: log.schema).grants ORDER BY role, scope", logger: log.logger
            ).decode((String, String).self) { grants.append((role, scope)) }
            return grants
        } catch {
            throw ServerErrors.describe(error, url: log.url, while: "reading grants from")
        }
    }

    /// Runs a change of `role`'s grants in one transaction, then rings every doorbell so that
    /// running replicas read their grants again.
    private static func change(
        _ log: ServerLog, role: String, while action: String, _ body: (PostgresConnection) async throws -> Void
    ) async throws(SyncError) {
        guard log.deployment.isScoped else {
            throw SyncError(.invalidArgument, "the sync tables in schema '\(log.schema)' have no scopes; run `signalstore sync setup --postgres ADMIN_URL --scope-column COLUMN` first")
        }
        do {
            try await log.connection.transactionUnlessClosed(logger: log.logger) { connection in
                var exists = false
                for try await found in try await connection.queryUnlessClosed(
                    "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = \(role))", logger: log.logger
                ).decode(Bool.self) { exists = found }
                guard exists else {
                    throw SyncError(.invalidArgument, "PostgreSQL has no role '\(role)'; create it first (CREATE ROLE \(role) LOGIN PASSWORD '…'), then grant it scopes")
                }
                try await body(connection)
                try await connection.queryUnlessClosed("SELECT pg_notify(\(log.channel), '')", logger: log.logger)
            }
        } catch {
            throw ServerErrors.describe(error, url: log.url, while: action)
        }
    }
}

private extension PostgresRowSequence {
    /// Runs each row's one text column as a statement (a `GRANT` made with `format(… %I …)`,
    /// which quotes the role's name).
    func decodeAndRun(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var statements: [String] = []
        for try await statement in decode(String.self) { statements.append(statement) }
        for statement in statements { try await connection.queryUnlessClosed(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }
}
#endif
