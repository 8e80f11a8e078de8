import Foundation
import SignalStore

/// How the CLI addresses a table's columns and rows by what the user typed.
extension TableSchema {
    /// The column called `name` (case-insensitively, as SQLite matches identifiers).
    /// - Throws: A ``CLIError`` listing the columns when there is none.
    func column(_ name: String) throws(CLIError) -> ColumnSchema {
        if let column = column(named: name) { return column }
        let names = columnNames
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

/// Finds the tables the user names, through a store's reader and its schema cache. Names typed
/// by the user are only ever matched against the schema's lists and bound as values, never
/// spliced into SQL.
enum SchemaReader {
    /// The user tables (not SQLite's, not the store's, not virtual), by name.
    static func tableNames(_ store: Store) throws(CLIError) -> [String] {
        try CLIFailure.run {
            try store.readConnection { connection in try store.schema.tableNames(connection) }
        }
    }

    /// Each user table's column names in schema order: the order a printed change lists a
    /// row's values in.
    static func columnOrders(_ store: Store) throws(CLIError) -> [String: [String]] {
        var orders: [String: [String]] = [:]
        for name in try tableNames(store) { orders[name] = try table(name, in: store).columnNames }
        return orders
    }

    /// The rules of the table called exactly `name`.
    static func rules(_ name: String, in store: Store) throws(CLIError) -> TableRules {
        try store.readForCLI { connection in try store.schema.rules(name, connection) }
    }

    /// The table called `name` (case-insensitively).
    /// - Throws: A ``CLIError`` listing the tables when there is none.
    static func table(_ name: String, in store: Store) throws(CLIError) -> TableSchema {
        let names = try tableNames(store)
        guard let canonical = names.first(where: { $0.lowercased() == name.lowercased() }) else {
            let known = names.isEmpty ? "none (run `signalstore migrate`)" : names.joined(separator: ", ")
            throw CLIError("no table \(display(name)) in this database\(Suggestion.phrase(for: name, in: names)); its tables are: \(known)")
        }
        let schema = try CLIFailure.run { try store.readConnection { connection in try store.schema.table(canonical, connection) } }
        guard let schema else { throw CLIError("table \(canonical) was dropped while reading it; run the command again") }
        return schema
    }
}
