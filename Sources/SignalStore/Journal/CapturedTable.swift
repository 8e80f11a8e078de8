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

    /// The captured tables of the database on `connection`, by name, derived from what
    /// `schema` answers of each user table's columns and rules.
    package static func all(_ schema: SchemaCache, _ connection: Connection) throws -> [CapturedTable] {
        var tables: [(schema: TableSchema, rules: TableRules)] = []
        for name in try schema.tableNames(connection) {
            guard let table = try schema.table(name, connection) else { continue }
            tables.append((table, try schema.rules(name, connection)))
        }
        let foreignKeys = Dictionary(tables.map { ($0.schema.name, $0.rules.foreignKeys) }, uniquingKeysWith: { first, _ in first })
        return tables.filter { !$0.schema.isWithoutRowID }.map { table in
            CapturedTable(
                schema: table.schema, columns: table.schema.columnNames, primaryKey: table.schema.primaryKey, uniqueKeys: table.rules.uniqueKeys,
                referencedBy: DeleteRuleTriggers.enforced(referencing: table.schema, amongKeysOf: foreignKeys)
            )
        }
    }

    /// The names of the captured tables, by name; cheaper than ``all(_:)``.
    package static func names(_ connection: Connection) throws -> [String] {
        try TableSchema.userTables(connection).filter(\.isCaptured).map(\.name)
    }
}
