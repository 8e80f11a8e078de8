import Foundation
import SignalStore

/// A column of a user table, as `PRAGMA table_info` reports it.
struct ColumnSchema: Sendable {
    /// SQLite's type affinity, from the declared type (https://www.sqlite.org/datatype3.html).
    enum Affinity: String, Sendable {
        case integer = "INTEGER", real = "REAL", text = "TEXT", blob = "BLOB", numeric = "NUMERIC"
    }

    let name: String
    let declaredType: String
    let notNull: Bool
    let defaultSQL: String?
    /// The column's position in the primary key (1-based), 0 if not part of it.
    let primaryKeyPosition: Int

    /// The affinity, by SQLite's rules in their order.
    var affinity: Affinity {
        let type = declaredType.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
        if type.isEmpty || type.contains("BLOB") { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        return .numeric
    }
}

/// A user table: its columns and how the CLI addresses its rows.
struct TableSchema: Sendable {
    let name: String
    let columns: [ColumnSchema]
    let isWithoutRowID: Bool

    /// The single primary-key column, if the primary key has exactly one column.
    var keyColumn: ColumnSchema? {
        let key = columns.filter { $0.primaryKeyPosition > 0 }
        return key.count == 1 ? key[0] : nil
    }

    /// The SQL expression that identifies a row: the primary-key column, else `rowid`.
    var keyExpression: String {
        keyColumn.map { quotedIdentifier($0.name) } ?? "rowid"
    }

    /// The column called `name` (case-insensitively, as SQLite matches identifiers).
    func column(_ name: String) throws(CLIError) -> ColumnSchema {
        if let column = columns.first(where: { $0.name.lowercased() == name.lowercased() }) { return column }
        let names = columns.map(\.name)
        throw CLIError("table \(self.name) has no column \(display(name))\(Suggestion.phrase(for: name, in: names)); its columns are: \(names.joined(separator: ", "))")
    }

    /// Parses a row id given on the command line: a value of the key column's type, else a
    /// rowid (an integer).
    func parseID(_ text: String) throws(CLIError) -> SQLiteValue {
        if let keyColumn {
            let value = try ValueParser.parse(text, for: keyColumn, in: name)
            if value == .null { throw CLIError("an id cannot be null; give the \(keyColumn.name) of a row of \(name)") }
            return value
        }
        if isWithoutRowID {
            throw CLIError("table \(name) has a composite primary key and no rowid; the CLI addresses rows by a single key, use sqlite3 for this table")
        }
        guard let rowID = Int64(text) else {
            throw CLIError("\(display(text)) is not a row id of \(name): give its rowid, a whole number like 42")
        }
        return .integer(rowID)
    }
}

/// Reads table schemas through a store's connection. Names typed by the user are only ever
/// matched against these lists and bound as values, never spliced into SQL.
enum SchemaReader {
    /// The user tables (not SQLite's, not the store's, not virtual), by name.
    static func tableNames(_ store: Store) throws(CLIError) -> [String] {
        try CLIFailure.run {
            try store.readConnection { connection in try CapturedTable.userTables(connection).map(\.name) }
        }
    }

    /// The table called `name` (case-insensitively).
    /// - Throws: A ``CLIError`` listing the tables when there is none.
    static func table(_ name: String, in store: Store) throws(CLIError) -> TableSchema {
        let names = try tableNames(store)
        guard let canonical = names.first(where: { $0.lowercased() == name.lowercased() }) else {
            let known = names.isEmpty ? "none (run `signalstore migrate`)" : names.joined(separator: ", ")
            throw CLIError("no table \(display(name)) in this database\(Suggestion.phrase(for: name, in: names)); its tables are: \(known)")
        }
        return try CLIFailure.run {
            try store.readConnection { connection in
                let columns = try connection.statement("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)")
                    .rows([.text(canonical)])
                    .map { row in
                        ColumnSchema(
                            name: row[0].textValue ?? "", declaredType: row[1].textValue ?? "", notNull: row[2] == .integer(1),
                            defaultSQL: row[3].textValue, primaryKeyPosition: Int(row[4].integerValue ?? 0)
                        )
                    }
                let withoutRowID = try connection.statement("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?")
                    .rows([.text(canonical)]).first?.first == .integer(1)
                return TableSchema(name: canonical, columns: columns, isWithoutRowID: withoutRowID)
            }
        }
    }
}

extension SQLiteValue {
    /// The text, for `.text`.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer, for `.integer`.
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
