/// A table's rules, read from the schema: its UNIQUE keys, CHECK conditions and foreign keys.
/// The one reader of them: change capture, the CLI, the inspector and sync all use it.
package struct TableRules: Sendable, Equatable {
    /// The UNIQUE indexes, the primary key's included when it is not the rowid.
    package let uniqueKeys: [UniqueKey]
    /// Each CHECK constraint's condition, as written in `CREATE TABLE`.
    package let checks: [String]
    /// The `REFERENCES` clauses, in declaration order.
    package let foreignKeys: [ForeignKey]

    /// The rules of `table` (none for a table that does not exist).
    package static func read(_ table: String, _ connection: Connection) throws -> TableRules {
        let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])?.textValue ?? ""
        return TableRules(
            uniqueKeys: try UniqueKey.all(of: table, connection),
            checks: CheckConstraint.conditions(in: sql),
            foreignKeys: try ForeignKey.all(of: table, connection)
        )
    }

    /// Each index of `table` as written (`CREATE INDEX …`), by name; not the ones SQLite makes
    /// for UNIQUE and PRIMARY KEY constraints.
    package static func indexDefinitions(of table: String, _ connection: Connection) throws -> [String] {
        try connection.statement("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name")
            .rows([.text(table)]).compactMap { $0[0].textValue }
    }
}

/// Finds the CHECK constraints in a `CREATE TABLE` statement.
package enum CheckConstraint {
    /// The conditions of the `CHECK (…)` clauses of a `CREATE TABLE` statement, skipping
    /// string literals, quoted identifiers and comments.
    package static func conditions(in sql: String) -> [String] {
        let characters = Array(sql)
        var conditions: [String] = []
        var index = 0
        func skipQuoted(_ close: Character) {
            index += 1
            while index < characters.count {
                if characters[index] == close {
                    if index + 1 < characters.count, characters[index + 1] == close, close != "]" { index += 2; continue }
                    break
                }
                index += 1
            }
            index += 1
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"", "`": skipQuoted(character)
            case "[": skipQuoted("]")
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 2
            case "c", "C":
                let isWordStart = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == "_")
                if isWordStart, index + 5 <= characters.count, String(characters[index..<index + 5]).uppercased() == "CHECK",
                   let condition = parenthesized(after: index + 5, in: characters) {
                    conditions.append(condition.text)
                    index = condition.end
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
        return conditions
    }

    /// The text inside the parentheses that open after optional spaces at `start`, and the
    /// index after the closing one.
    private static func parenthesized(after start: Int, in characters: [Character]) -> (text: String, end: Int)? {
        var index = start
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count, characters[index] == "(" else { return nil }
        let open = index
        var depth = 0
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            if let current = quote {
                if character == current { quote = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 {
                    return (String(characters[(open + 1)..<index]).trimmingCharacters(in: .whitespacesAndNewlines), index + 1)
                }
            }
            index += 1
        }
        return nil
    }
}
