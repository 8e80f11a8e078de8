#if SIGNALSTORE_SYNC
import SignalStore

/// Sync for many users through one server: each PostgreSQL role reads and writes only the
/// rows of its scopes, and PostgreSQL's row-level security enforces it.
///
/// A table with the scope column (say `team_id`) syncs per scope: the value of that column is
/// the row's scope. Tables without it are shared by every role. The administrator prepares the
/// server once, with a connection as the sync tables' owner, and grants each role its scopes;
/// each replica then connects as its own role and holds exactly its scopes' rows. The threat
/// model, the policies and what a DBA runs are in the <doc:SyncDesign> article.
///
/// ```swift
/// import SignalStoreSync
///
/// func prepare(_ store: Store) async throws {
///     let admin = try PostgresURL("postgres://admin@db.example.com/app")
///     let scoped = try await SyncScopes.setUp(admin, scopeColumn: "team_id", store: store)
///     print("scoped tables:", scoped.keys.sorted())
///     try await SyncScopes.grant(admin, role: "alice", scopes: ["7", "9"])
/// }
/// ```
public enum SyncScopes {
    /// Prepares the server at `url` (connected as the sync tables' owner, or a superuser) for
    /// sync by `scopeColumn`: the synced tables of `store` that have the column sync by scope.
    ///
    /// The server then takes entries only of the synced tables and columns of `store`, and
    /// values of at most `maxValueBytes` bytes (1 MiB on a new server; `nil` keeps the limit
    /// set before); it refuses any other entry, and the replica that made it lists it as a
    /// conflict. Idempotent: on a server that already syncs, the log's entries get their
    /// scopes and the roles' write privileges of earlier versions go; after a migration that
    /// adds a table or a column, run it again.
    /// - Returns: Each scoped table and its scope column.
    /// - Throws: ``SyncError/invalidArgument`` when no synced table has the column, or the
    ///   limit is not positive.
    @discardableResult
    public static func setUp(_ url: PostgresURL, scopeColumn: String, store: Store, tables: [String]? = nil, maxValueBytes: Int64? = nil) async throws(SyncError) -> [String: String] {
        if let maxValueBytes, maxValueBytes <= 0 {
            throw SyncError(.invalidArgument, "the size limit of a value must be a positive number of bytes (1048576 for 1 MiB), not \(maxValueBytes)")
        }
        let synced: SyncedTables
        do {
            synced = try store.readConnection { connection in try SyncedTables(tables, store.schema, connection) }
        } catch {
            throw SyncError(error)
        }
        let scoped = synced.names.filter { synced.byName[$0]?.columns.contains(scopeColumn) == true }
        guard !scoped.isEmpty else {
            throw SyncError(.invalidArgument, "no synced table of this database has a column '\(scopeColumn)' (tables: \(synced.names.joined(separator: ", "))); name the column that holds each row's scope, or add it in a migration")
        }
        if let keyed = scoped.first(where: { synced.byName[$0]?.primaryKey.contains(scopeColumn) == true }) {
            throw SyncError(.invalidArgument, "'\(scopeColumn)' is part of the primary key of '\(keyed)', and a row's scope must be able to change without its key; use a column outside the key")
        }
        let columns = Dictionary(uniqueKeysWithValues: scoped.map { ($0, scopeColumn) })
        let facts = synced.names.compactMap { name in
            synced.byName[name].map { ScopedServer.TableFacts(name: name, columns: $0.columns, keyLength: $0.primaryKey.count) }
        }
        try await SyncClient.withLog(url) { log throws(SyncError) in
            try await ScopedServer.setUp(log, scopeColumns: columns, tables: facts, maxValueBytes: maxValueBytes)
        }
        return columns
    }

    /// Lets PostgreSQL `role` read and write the rows of `scopes`, and gives it the privileges
    /// on the sync tables a replica needs. The role must exist (`CREATE ROLE … LOGIN`); its
    /// running replicas fetch the new scopes' rows without a restart.
    public static func grant(_ url: PostgresURL, role: String, scopes: [String]) async throws(SyncError) {
        try check(scopes)
        try await SyncClient.withLog(url) { log throws(SyncError) in try await ScopedServer.grant(log, role: role, scopes: scopes) }
    }

    /// Takes `scopes` from `role`; its running replicas remove those scopes' rows without a
    /// restart.
    public static func revoke(_ url: PostgresURL, role: String, scopes: [String]) async throws(SyncError) {
        try check(scopes)
        try await SyncClient.withLog(url) { log throws(SyncError) in try await ScopedServer.revoke(log, role: role, scopes: scopes) }
    }

    /// Every grant on the server, by role, then scope.
    public static func grants(_ url: PostgresURL) async throws(SyncError) -> [SyncGrant] {
        try await SyncClient.withLog(url) { log throws(SyncError) in try await ScopedServer.grants(log).map { SyncGrant(role: $0.role, scope: $0.scope) } }
    }

    private static func check(_ scopes: [String]) throws(SyncError) {
        guard !scopes.isEmpty, !scopes.contains("") else {
            throw SyncError(.invalidArgument, "name at least one scope, each a non-empty value of the scope column (7, team-red)")
        }
    }
}

/// A PostgreSQL role's grant of one scope (``SyncScopes/grants(_:)``).
public struct SyncGrant: Sendable, Equatable, Hashable {
    /// The role.
    public let role: String
    /// The scope: a value of the scope column, as text.
    public let scope: String
}
#endif
