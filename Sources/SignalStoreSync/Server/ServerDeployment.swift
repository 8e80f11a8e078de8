#if SIGNALSTORE_SYNC
import Logging
import PostgresNIO

/// What a server's sync tables say about scopes, read once per connection: which tables sync
/// by scope, and whether this connection's role sees every scope.
struct ServerDeployment: Sendable, Equatable {
    /// Each scoped table's scope column; empty for a deployment without scopes.
    var scopeColumns: [String: String] = [:]
    /// Whether the role sees every row whatever its scope: the sync tables' owner, a
    /// superuser, a role with `BYPASSRLS`, or any role of a deployment without scopes.
    var seesEverything = true

    /// Whether `signalstore sync setup --scope-column` prepared the server.
    var isScoped: Bool { !scopeColumns.isEmpty }

    /// Reads the deployment of the sync tables in `schema`.
    static func read(_ connection: PostgresConnection, schema: String, logger: Logger) async throws -> ServerDeployment {
        var hasScopes = false
        for try await present in try await connection.queryUnlessClosed(
            "SELECT to_regclass(\(ScopedServer.qualified(schema, "scoped_tables"))) IS NOT NULL", logger: logger
        ).decode(Bool.self) { hasScopes = present }
        guard hasScopes else { return ServerDeployment() }
        var deployment = ServerDeployment()
        for try await (table, column) in try await connection.queryUnlessClosed(
            "SELECT tbl, col FROM \(unescaped: schema).scoped_tables", logger: logger
        ).decode((String, String).self) { deployment.scopeColumns[table] = column }
        for try await everything in try await connection.queryUnlessClosed("""
            SELECT r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE')
            FROM pg_catalog.pg_roles r, pg_catalog.pg_class c
            WHERE r.rolname = current_user AND c.oid = to_regclass(\(ScopedServer.qualified(schema, "log")))
            """, logger: logger).decode(Bool.self) { deployment.seesEverything = everything }
        return deployment
    }
}
#endif
