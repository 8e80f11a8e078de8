/// The SQL that writes one row of a table, built in one place for the store's models, the CLI
/// and sync: statements prepared once and run with each row's values. Names are quoted
/// (``SQL``); values are always bound (`?`), never spliced.
package enum RowSQL {
    /// `INSERT INTO "t" ("a", "b") VALUES (?, ?)`, or `INSERT INTO "t" DEFAULT VALUES` for no
    /// columns; `INSERT OR REPLACE` with `orReplace`.
    package static func insert(into table: String, columns: [String], orReplace: Bool = false) -> String {
        let verb: SQL = orReplace ? "INSERT OR REPLACE INTO" : "INSERT INTO"
        guard !columns.isEmpty else { return SQL("\(verb) \(identifier: table) DEFAULT VALUES").text }
        let placeholders = SQL(joining: Array(repeating: "?", count: columns.count), separator: ", ")
        return SQL("\(verb) \(identifier: table) (\(identifiers: columns)) VALUES (\(placeholders))").text
    }

    /// `UPDATE "t" SET "a" = ?, "b" = ? WHERE <row> = ?`: the columns' values, then the row's.
    /// - Parameter row: The SQL expression naming the row: `rowid`, or a quoted key column.
    package static func update(_ table: String, columns: [String], where row: SQL = "rowid") -> String {
        let assignments = SQL(joining: columns.map { "\(identifier: $0) = ?" }, separator: ", ")
        return SQL("UPDATE \(identifier: table) SET \(assignments) WHERE \(row) = ?").text
    }

    /// `DELETE FROM "t" WHERE <row> = ?`.
    /// - Parameter row: The SQL expression naming the row: `rowid`, or a quoted key column.
    package static func delete(from table: String, where row: SQL = "rowid") -> String {
        SQL("DELETE FROM \(identifier: table) WHERE \(row) = ?").text
    }
}
