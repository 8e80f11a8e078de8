#if SIGNALSTORE_SYNC
import SignalStore

/// The scopes whose rows this database file holds, as of its last pass: what a change of the
/// role's grants is compared with (a scope gained has history to fetch, one lost has rows to
/// remove). In a table the journal does not capture; `nil` until the first pass with scopes.
enum HeldScopes {
    static let table = "_signalstore_sync_scopes"

    static func read(_ connection: Connection) throws -> Set<String>? {
        guard try connection.tableExists(table) else { return nil }
        return Set(try connection.statement("SELECT scope FROM \(table)").rows().compactMap(\.first?.textValue))
    }

    static func save(_ scopes: Set<String>, _ connection: Connection) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS \(table) (scope TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM \(table);")
        let insert = try connection.statement("INSERT INTO \(table) (scope) VALUES (?)")
        for scope in scopes.sorted() { try insert.run([.text(scope)]) }
    }
}
#endif
