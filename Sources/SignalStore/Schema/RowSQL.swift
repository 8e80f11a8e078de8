/// The SQL that writes one row of a table, built in one place for the store's models, the CLI
/// and sync. Names are quoted; values are always bound (`?`), never spliced.
package enum RowSQL {
    /// `INSERT INTO "t" ("a", "b") VALUES (?, ?)`, or `INSERT INTO "t" DEFAULT VALUES` for no
    /// columns; `INSERT OR REPLACE` with `orReplace`.
    package static func insert(into table: String, columns: [String], orReplace: Bool = false) -> String {
        let verb = orReplace ? "INSERT OR REPLACE INTO" : "INSERT INTO"
        guard !columns.isEmpty else { return "\(verb) \(quotedIdentifier(table)) DEFAULT VALUES" }
        let names = columns.map(quotedIdentifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "\(verb) \(quotedIdentifier(table)) (\(names)) VALUES (\(placeholders))"
    }

    /// `UPDATE "t" SET "a" = ?, "b" = ? WHERE <row> = ?`: the columns' values, then the row's.
    /// - Parameter row: The SQL expression naming the row: `rowid`, or a quoted key column.
    package static func update(_ table: String, columns: [String], where row: String = "rowid") -> String {
        let assignments = columns.map { "\(quotedIdentifier($0)) = ?" }.joined(separator: ", ")
        return "UPDATE \(quotedIdentifier(table)) SET \(assignments) WHERE \(row) = ?"
    }

    /// `DELETE FROM "t" WHERE <row> = ?`.
    /// - Parameter row: The SQL expression naming the row: `rowid`, or a quoted key column.
    package static func delete(from table: String, where row: String = "rowid") -> String {
        "DELETE FROM \(quotedIdentifier(table)) WHERE \(row) = ?"
    }
}
