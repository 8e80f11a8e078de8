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

/// Where one row is, as a `WHERE` condition with its values bound: by rowid, by the value of a
/// table's key (its single key column, or the rowid), or by its whole primary key.
package struct RowLocator: Sendable {
    /// The condition, its values bound.
    package let condition: SQL

    /// The row whose rowid is `rowID`.
    package static func rowID(_ rowID: Int64) -> RowLocator {
        RowLocator(condition: "rowid = \(value: .integer(rowID))")
    }

    /// The row whose key (``TableSchema/keyExpression``: the single key column, else the
    /// rowid) is `value`.
    package static func key(_ value: SQLiteValue, in table: TableSchema) -> RowLocator {
        RowLocator(condition: "\(table.keyExpression) = \(value: value)")
    }

    /// The row whose primary-key columns hold `values`, in key order (`IS`, so a NULL key part
    /// matches).
    package static func primaryKey(_ values: [SQLiteValue], in table: TableSchema) -> RowLocator {
        RowLocator(condition: table.keyCondition(values))
    }
}

extension RowSQL {
    /// `SELECT <columns> FROM "t" WHERE <row>`.
    package static func read(_ columns: SQL, from table: String, at row: RowLocator) -> SQL {
        "SELECT \(columns) FROM \(identifier: table) WHERE \(row.condition)"
    }

    /// `SELECT "a", "b" FROM "t" WHERE <row>`.
    package static func read(_ columns: [String], from table: String, at row: RowLocator) -> SQL {
        read("\(identifiers: columns)", from: table, at: row)
    }

    /// `DELETE FROM "t" WHERE <row>`.
    package static func delete(from table: String, at row: RowLocator) -> SQL {
        "DELETE FROM \(identifier: table) WHERE \(row.condition)"
    }

    /// `UPDATE "t" SET "a" = ?, … WHERE <row>`, the values bound.
    package static func update(_ table: String, setting values: [(column: String, value: SQLiteValue)], at row: RowLocator) -> SQL {
        let assignments = SQL(joining: values.map { "\(identifier: $0.column) = \(value: $0.value)" }, separator: ", ")
        return "UPDATE \(identifier: table) SET \(assignments) WHERE \(row.condition)"
    }
}
