import Foundation
import SignalStore

/// A table's rules beyond its columns: UNIQUE keys, CHECK constraints and foreign keys, as
/// `schema` shows them (what a constraint error points to).
struct TableConstraints: Sendable {
    /// One foreign key: these columns refer to those of another table.
    struct ForeignKey: Sendable {
        let columns: [String]
        let table: String
        let referenced: [String]
        let onDelete: String
        let onUpdate: String

        /// `FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL`.
        var sql: String {
            var text = "FOREIGN KEY (\(columns.joined(separator: ", "))) REFERENCES \(table)"
            if !referenced.isEmpty { text += " (\(referenced.joined(separator: ", ")))" }
            if onDelete != "NO ACTION" { text += " ON DELETE \(onDelete)" }
            if onUpdate != "NO ACTION" { text += " ON UPDATE \(onUpdate)" }
            return text
        }
    }

    /// One UNIQUE key: its terms as written (`email`, `lower(handle)`), and a partial index's
    /// condition.
    struct Unique: Sendable {
        let terms: [String]
        let condition: String?

        /// `UNIQUE (lower(handle)) WHERE (active = 1)`.
        var sql: String {
            "UNIQUE (\(terms.joined(separator: ", ")))" + (condition.map { " WHERE (\($0))" } ?? "")
        }
    }

    /// The UNIQUE keys, read the way the store's change capture reads them.
    let uniqueKeys: [Unique]
    /// Each CHECK constraint's condition, as written in `CREATE TABLE`.
    let checks: [String]
    let foreignKeys: [ForeignKey]

    /// Every rule as one SQL-like line, in the order UNIQUE, CHECK, FOREIGN KEY.
    var lines: [String] {
        uniqueKeys.map(\.sql) + checks.map { "CHECK (\($0))" } + foreignKeys.map(\.sql)
    }

    static func read(_ table: String, _ connection: Connection) throws -> TableConstraints {
        let unique = try UniqueKey.all(of: table, connection).map { key in
            Unique(terms: key.terms.map { term in
                switch term {
                case .column(let name, _), .expression(let name, _): return name
                }
            }, condition: key.condition)
        }
        let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])?.textValue ?? ""
        let keys = try connection.statement("SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq")
            .rows([.text(table)])
        var foreignKeys: [ForeignKey] = []
        var lastID: Int64?
        for row in keys {
            let (from, to) = (row[2].textValue ?? "", row[3].textValue)
            if row[0].integerValue == lastID, let last = foreignKeys.popLast() {
                foreignKeys.append(ForeignKey(columns: last.columns + [from], table: last.table, referenced: last.referenced + (to.map { [$0] } ?? []), onDelete: last.onDelete, onUpdate: last.onUpdate))
            } else {
                foreignKeys.append(ForeignKey(columns: [from], table: row[1].textValue ?? "", referenced: to.map { [$0] } ?? [], onDelete: row[5].textValue ?? "NO ACTION", onUpdate: row[4].textValue ?? "NO ACTION"))
            }
            lastID = row[0].integerValue
        }
        return TableConstraints(uniqueKeys: unique, checks: checkConditions(in: sql), foreignKeys: foreignKeys)
    }

    /// The conditions of the `CHECK (…)` clauses of a `CREATE TABLE` statement, skipping
    /// string literals, quoted identifiers and comments.
    static func checkConditions(in sql: String) -> [String] {
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
