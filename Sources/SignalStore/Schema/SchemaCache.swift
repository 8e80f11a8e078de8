/// What was read of a database's schema (its user tables, each table's columns and rules, the
/// tables the journal captures), kept until `PRAGMA schema_version` changes, by any connection or
/// process, as GRDB's schema cache does. Checking costs one pragma; reading a table's rules costs
/// several queries. The store keeps one (``Store/schema``); the model check, relationships,
/// live results' collations, a row's history and revert, the CLI, the inspector and sync ask it.
///
/// A connection inside a write transaction reads the schema afresh and keeps nothing: what it
/// sees may be undone, and after a rollback SQLite gives the next change the same
/// `schema_version` again, so a kept copy would pass for a schema that never was.
package final class SchemaCache: Sendable {
    private struct State {
        var version: Int64?
        var tableNames: [String]?
        var tables: [String: TableSchema] = [:]
        var rules: [String: TableRules] = [:]
        var captured: [CapturedTable]?
    }

    private let state = Locked(State())

    package init() {}

    /// The user tables' names (``TableSchema/userTables(_:)``), sorted.
    package func tableNames(_ connection: Connection) throws -> [String] {
        try cached(connection, \.tableNames) { try TableSchema.userTables(connection).map(\.name) } store: { $0.tableNames = $1 } ?? []
    }

    /// The table called exactly `name`; `nil` if there is none.
    package func table(_ name: String, _ connection: Connection) throws -> TableSchema? {
        try cached(connection, \.tables[name]) { try TableSchema.read(name, connection) } store: { $0.tables[name] = $1 }
    }

    /// The rules of the table called exactly `name` (none for a missing table).
    package func rules(_ name: String, _ connection: Connection) throws -> TableRules {
        try cached(connection, \.rules[name]) { try TableRules.read(name, connection) } store: { $0.rules[name] = $1 }
            ?? TableRules(uniqueKeys: [], checks: [], foreignKeys: [])
    }

    /// The tables the journal captures (``CapturedTable/all(_:)``).
    package func capturedTables(_ connection: Connection) throws -> [CapturedTable] {
        try cached(connection, \.captured) { try CapturedTable.all(self, connection) } store: { $0.captured = $1 } ?? []
    }

    /// The kept value at `path` when the schema is the one it was read from; otherwise what
    /// `read` returns, kept (unless `connection` is writing).
    private func cached<Value>(
        _ connection: Connection, _ path: KeyPath<State, Value?>, read: () throws -> Value?, store: (inout State, Value) -> Void
    ) throws -> Value? {
        if connection.isWriting { return try read() }
        let version = try connection.schemaVersion()
        if let kept = state.withLock({ state -> Value? in
            guard state.version == version else {
                state = State(version: version)
                return nil
            }
            return state[keyPath: path]
        }) { return kept }
        guard let value = try read() else { return nil }
        state.withLock { state in
            if state.version == version { store(&state, value) }
        }
        return value
    }
}
