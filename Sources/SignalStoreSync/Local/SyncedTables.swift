#if SIGNALSTORE_SYNC
import SignalStore

/// The tables a replica syncs, as this database's schema describes them.
///
/// A synced table needs a declared primary key: rowids are local to one database file, so
/// only the key names a row on every machine.
struct SyncedTables: Sendable {
    /// The synced tables by name.
    let byName: [String: CapturedTable]
    /// `PRAGMA schema_version` when the tables were read: a migration, by this process or
    /// another, changes it, and the tables are read again.
    let schemaVersion: Int64
    /// The foreign keys between synced tables, each naming the columns it refers to (the
    /// parent's primary key when the clause names none). Read with the tables, once per
    /// schema version.
    let foreignKeys: [ForeignKey]
    /// The synced tables with a CHECK constraint.
    let checked: Set<String>
    /// For each table, the indices of its columns (schema order, as the journal writes a
    /// row) in the order of their names, as the log writes a row: found once, not per row.
    let nameOrder: [String: [Int]]
    /// The tables that sync by scope and the scopes this replica holds (from the server, at
    /// each pass).
    var scopes = ReplicaScopes()

    /// The synced tables of the database on `connection`: `names`, or every captured table, as
    /// the store's schema cache (`schema`) describes them.
    /// - Throws: ``SyncError/schemaMismatch`` for a named table that is missing or not
    ///   captured, and for a table without a primary key.
    init(_ names: [String]?, _ schema: SchemaCache, _ connection: Connection) throws {
        let captured = Dictionary(uniqueKeysWithValues: try schema.capturedTables(connection).map { ($0.name, $0) })
        var tables: [String: CapturedTable] = [:]
        for name in names ?? captured.keys.sorted() {
            guard let table = captured[name] else {
                let known = captured.keys.sorted().joined(separator: ", ")
                throw SyncError(.schemaMismatch, "no table '\(name)' to sync in this database (its synced tables can be: \(known.isEmpty ? "none" : known)); create it with a migration, or leave it out of --table", table: name)
            }
            tables[name] = table
        }
        let keyless = tables.values.filter(\.primaryKey.isEmpty).map(\.name).sorted()
        guard keyless.isEmpty else {
            throw SyncError(.schemaMismatch, "cannot sync \(keyless.map { "'\($0)'" }.joined(separator: ", ")): a synced table needs a PRIMARY KEY to name its rows on every machine (rowids differ between files); add one in a migration, or pass --table for the others", table: keyless.first)
        }
        byName = tables
        nameOrder = tables.mapValues { table in table.columns.indices.sorted { table.columns[$0] < table.columns[$1] } }
        schemaVersion = try connection.schemaVersion()
        var foreignKeys: [ForeignKey] = []
        var checked: Set<String> = []
        for name in tables.keys.sorted() {
            let rules = try schema.rules(name, connection)
            if !rules.checks.isEmpty { checked.insert(name) }
            foreignKeys += rules.foreignKeys.compactMap { key in tables[key.parent].map { key.referencing($0.primaryKey) } }
        }
        self.foreignKeys = foreignKeys
        self.checked = checked
    }

    /// The names, sorted.
    var names: [String] { byName.keys.sorted() }

    /// The tables, each after the tables its foreign keys refer to (by name among equals; a
    /// self-reference is ignored, and tables in a cycle of references come last, by name).
    var parentsFirst: [CapturedTable] {
        var parents: [String: Set<String>] = [:]
        for key in foreignKeys where key.parent != key.child { parents[key.child, default: []].insert(key.parent) }
        var ordered: [String] = []
        var placed: Set<String> = []
        var remaining = names
        while let next = remaining.firstIndex(where: { parents[$0, default: []].isSubset(of: placed) }) {
            let name = remaining.remove(at: next)
            ordered.append(name)
            placed.insert(name)
        }
        return (ordered + remaining).compactMap { byName[$0] }
    }

    /// The key of `row` in `table`, or `nil` if the row lacks a key column.
    func key(of row: [String: SQLiteValue], in table: CapturedTable) -> [SQLiteValue]? {
        let values = table.primaryKey.compactMap { row[$0] }
        return values.count == table.primaryKey.count ? values : nil
    }
}
#endif

#if SIGNALSTORE_SYNC
extension CapturedTable {
    /// Checks that this database's table has every column another replica's change wrote.
    /// - Throws: ``SyncError/Code/schemaMismatch`` naming the missing columns.
    func checkColumns(_ columns: some Sequence<String>, writtenBy remote: RemoteEntry) throws {
        let missing = columns.filter { !self.columns.contains($0) }.sorted()
        guard missing.isEmpty else {
            throw SyncError(.schemaMismatch, "replica \(remote.origin) wrote column\(missing.count == 1 ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", ")) of '\(name)', which this database does not have; migrate this database to the same schema version as the other replicas, then sync again", table: name, column: missing.first)
        }
    }
}
#endif
