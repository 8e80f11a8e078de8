/// A user table whose changes the journal captures, as the schema describes it.
///
/// Captured: every ordinary table of the main schema except SQLite's own (`sqlite_*`), the
/// store's own (`_signalstore_*`) and `WITHOUT ROWID` tables, whose rows have no rowid for the
/// journal to name. Virtual tables (and their shadow tables) are not ordinary tables: their
/// changes are never captured, and they are not listed.
package struct CapturedTable: Sendable, Equatable {
    /// The table's name.
    package let name: String
    /// Its columns, in schema order.
    package let columns: [String]
    /// The column that aliases the rowid (an `INTEGER PRIMARY KEY`), if any.
    package let rowIDAlias: String?
    /// The declared primary key's columns, in key order; empty when the table declares none
    /// (its rows are named by rowid only, which differs between databases).
    package let primaryKey: [String]
    /// Every UNIQUE constraint, UNIQUE index and non-rowid primary key: what a `REPLACE` can
    /// evict a row by, besides the rowid.
    package let uniqueKeys: [UniqueKey]

    /// The captured tables of the database on `connection`, by name.
    package static func all(_ connection: Connection) throws -> [CapturedTable] {
        try names(connection).map { try read($0, connection) }
    }

    /// The names of the captured tables, by name; cheaper than ``all(_:)``.
    package static func names(_ connection: Connection) throws -> [String] {
        try userTables(connection).filter(\.isCaptured).map(\.name)
    }

    /// The user tables: ordinary tables of the main schema that are neither SQLite's nor the
    /// store's, by name, with whether their changes are captured (not for `WITHOUT ROWID`).
    package static func userTables(_ connection: Connection) throws -> [(name: String, isCaptured: Bool)] {
        try connection.statement(
            "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' ORDER BY name"
        ).rows().compactMap { row in
            guard case .text(let name) = row[0], isUserTable(name) else { return nil }
            return (name, row[1] == .integer(0))
        }
    }

    /// Whether `name` is a user table's name: not SQLite's, not the store's.
    static func isUserTable(_ name: String) -> Bool {
        !name.lowercased().hasPrefix("sqlite_") && !name.lowercased().hasPrefix("_signalstore_")
    }

    private static func read(_ table: String, _ connection: Connection) throws -> CapturedTable {
        let info = try connection.statement("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid").rows([.text(table)])
        var columns: [String] = []
        var key: [(name: String, type: String, position: Int64)] = []
        for column in info {
            guard case .text(let name) = column[0] else { continue }
            columns.append(name)
            if case .integer(let pk) = column[2], pk > 0, case .text(let type) = column[1] { key.append((name, type, pk)) }
        }
        key.sort { $0.position < $1.position }
        let alias = key.count == 1 && key[0].type.uppercased() == "INTEGER" ? key[0].name : nil
        return CapturedTable(
            name: table, columns: columns, rowIDAlias: alias, primaryKey: key.map(\.name),
            uniqueKeys: try UniqueKey.all(of: table, connection)
        )
    }
}
