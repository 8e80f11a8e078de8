/// A user table whose changes the journal captures, as the schema describes it.
///
/// Captured: every ordinary table of the main schema except SQLite's own (`sqlite_*`), the
/// store's own (`_signalstore_*`) and `WITHOUT ROWID` tables, whose rows have no rowid for the
/// journal to name. Virtual tables (and their shadow tables) are not ordinary tables: their
/// changes are never captured, and they are not listed.
package struct CapturedTable: Sendable, Equatable {
    /// The table's schema.
    package let schema: TableSchema
    /// Its columns' names, in schema order.
    package let columns: [String]
    /// The declared primary key's columns, in key order; empty when the table declares none
    /// (its rows are named by rowid only, which differs between databases). Read once: sync
    /// asks for it per applied entry.
    package let primaryKey: [String]
    /// Every UNIQUE constraint, UNIQUE index and non-rowid primary key: what a `REPLACE` can
    /// evict a row by, besides the rowid.
    package let uniqueKeys: [UniqueKey]
    /// The foreign keys of every table that refer to this one with a delete rule the store
    /// enforces for every writer (see ``DeleteRuleTriggers``), their referenced columns named.
    package let referencedBy: [ForeignKey]

    /// The table's name.
    package var name: String { schema.name }
    /// The column that aliases the rowid (an `INTEGER PRIMARY KEY`), if any.
    package var rowIDAlias: String? { schema.rowIDAlias }

    /// The captured tables of the database on `connection`, by name.
    package static func all(_ connection: Connection) throws -> [CapturedTable] {
        let tables = try TableSchema.userTables(connection)
        var foreignKeys: [String: [ForeignKey]] = [:]
        for table in tables { foreignKeys[table.name] = try ForeignKey.all(of: table.name, connection) }
        return try tables.filter(\.isCaptured).compactMap { try read($0.name, foreignKeys: foreignKeys, connection) }
    }

    /// The names of the captured tables, by name; cheaper than ``all(_:)``.
    package static func names(_ connection: Connection) throws -> [String] {
        try TableSchema.userTables(connection).filter(\.isCaptured).map(\.name)
    }

    private static func read(_ table: String, foreignKeys: [String: [ForeignKey]], _ connection: Connection) throws -> CapturedTable? {
        guard let schema = try TableSchema.read(table, connection) else { return nil }
        return CapturedTable(
            schema: schema, columns: schema.columnNames, primaryKey: schema.primaryKey, uniqueKeys: try UniqueKey.all(of: table, connection),
            referencedBy: DeleteRuleTriggers.enforced(referencing: schema, amongKeysOf: foreignKeys)
        )
    }
}
