/// A table as its schema declares it: columns with declared type, affinity, not-null, default
/// and key, and how its rows are named. The one place that reads `pragma_table_info`: the
/// store's change capture and model check, the CLI and sync all read a table through here.
package struct TableSchema: Sendable, Equatable {
    /// The table's name, as the schema spells it.
    package let name: String
    /// The columns, in schema order.
    package let columns: [ColumnSchema]
    /// Whether the table is `WITHOUT ROWID`.
    package let isWithoutRowID: Bool

    /// The columns' names, in schema order.
    package var columnNames: [String] {
        columns.map(\.name)
    }

    /// The declared primary key's columns, in key order; empty when the table declares none.
    package var primaryKey: [String] {
        columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    }

    /// The single primary-key column, if the primary key has exactly one column.
    package var keyColumn: ColumnSchema? {
        let key = columns.filter { $0.primaryKeyPosition > 0 }
        return key.count == 1 ? key[0] : nil
    }

    /// The column that aliases the rowid (an `INTEGER PRIMARY KEY` of a rowid table), if any.
    package var rowIDAlias: String? {
        guard !isWithoutRowID, let key = keyColumn, key.declaredType.uppercased() == "INTEGER" else { return nil }
        return key.name
    }

    /// The SQL expression that identifies a row: the single primary-key column, else `rowid`.
    /// `"a" IS ? AND "b" IS ?` over the primary key's columns: a row named by its key, the key's
    /// values bound in key order.
    /// For a statement prepared once and run with each key (its `?`s are not bound here).
    package var keyCondition: SQL {
        SQL(joining: primaryKey.map { "\(identifier: $0) IS ?" }, separator: " AND ")
    }

    /// ``keyCondition`` with `key`'s values bound.
    package func keyCondition(_ key: [SQLiteValue]) -> SQL {
        SQL(joining: zip(primaryKey, key).map { "\(identifier: $0) IS \(value: $1)" }, separator: " AND ")
    }

    package var keyExpression: SQL {
        keyColumn.map { "\(identifier: $0.name)" } ?? "rowid"
    }

    /// The column called `name`, matched case-insensitively as SQLite matches identifiers.
    package func column(named name: String) -> ColumnSchema? {
        columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Reads the table called `name` (exactly as spelled), or `nil` when the main schema has no
    /// such table.
    package static func read(_ name: String, _ connection: Connection) throws(SQLiteError) -> TableSchema? {
        let columns = try connection.statement(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid"
        ).rows([.text(name)]).map { row in
            ColumnSchema(
                name: row[0].textValue ?? "", declaredType: row[1].textValue ?? "", notNull: row[2] == .integer(1),
                defaultSQL: row[3].textValue, primaryKeyPosition: Int(row[4].integerValue ?? 0),
                collation: connection.declaredCollation(table: name, column: row[0].textValue ?? "") ?? "BINARY"
            )
        }
        guard !columns.isEmpty else { return nil }
        let withoutRowID = try connection.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(name)])
        return TableSchema(name: name, columns: columns, isWithoutRowID: withoutRowID == .integer(1))
    }

    /// The user tables: ordinary tables of the main schema that are neither SQLite's
    /// (`sqlite_*`) nor the store's (`_signalstore_*`), by name, with whether their changes are
    /// captured (every one but `WITHOUT ROWID` tables). Virtual tables are not listed.
    package static func userTables(_ connection: Connection) throws(SQLiteError) -> [(name: String, isCaptured: Bool)] {
        try connection.statement(
            "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' ORDER BY name"
        ).rows().compactMap { row in
            guard let name = row[0].textValue, isUserTable(name) else { return nil }
            return (name, row[1] == .integer(0))
        }
    }

    /// Whether `name` is a user table's name: not SQLite's, not the store's.
    package static func isUserTable(_ name: String) -> Bool {
        !name.lowercased().hasPrefix("sqlite_") && !name.lowercased().hasPrefix("_signalstore_")
    }
}
