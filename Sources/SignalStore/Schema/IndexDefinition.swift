import Foundation

/// The parts of a `CREATE INDEX` statement that `PRAGMA index_xinfo` does not give: the text of
/// each indexed term (for expression terms) and a partial index's `WHERE` condition.
///
/// A small scanner for the statement SQLite stored in `sqlite_master`: it finds the first
/// parenthesized list outside quotes, splits it at top-level commas, and takes what follows a
/// `WHERE` after it.
struct IndexDefinition: Equatable {
    /// Each term as written, without its `COLLATE` and `ASC`/`DESC` suffix.
    let terms: [String]
    /// The `WHERE` condition, if the index is partial.
    let condition: String?

    init?(sql: String) {
        let characters = Array(sql)
        guard let open = Self.firstTopLevelParenthesis(characters),
              let (terms, close) = Self.splitList(characters, from: open)
        else { return nil }
        self.terms = terms.map(Self.stripSuffixes)
        let rest = String(characters[(close + 1)...]).trimmingCharacters(in: .whitespacesAndNewlines)
        if rest.isEmpty {
            condition = nil
        } else if rest.count > 5, rest.prefix(5).uppercased() == "WHERE", rest.dropFirst(5).first?.isWhitespace == true {
            condition = String(rest.dropFirst(5)).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            return nil
        }
    }

    /// The index of the closing quote of the quoted span opening at `start`, if it opens one.
    private static func endOfQuote(_ characters: [Character], at start: Int) -> Int? {
        let closing: Character
        switch characters[start] {
        case "'": closing = "'"
        case "\"": closing = "\""
        case "`": closing = "`"
        case "[": closing = "]"
        default: return nil
        }
        var index = start + 1
        while index < characters.count {
            if characters[index] == closing {
                // A doubled quote inside the span stands for itself.
                if closing != "]", index + 1 < characters.count, characters[index + 1] == closing { index += 2; continue }
                return index
            }
            index += 1
        }
        return characters.count - 1
    }

    private static func firstTopLevelParenthesis(_ characters: [Character]) -> Int? {
        var index = 0
        while index < characters.count {
            if let end = endOfQuote(characters, at: index) { index = end + 1; continue }
            if characters[index] == "(" { return index }
            index += 1
        }
        return nil
    }

    /// The comma-separated items of the list opening at `open`, and the index of its `)`.
    private static func splitList(_ characters: [Character], from open: Int) -> ([String], Int)? {
        var items: [String] = []
        var depth = 0
        var start = open + 1
        var index = open + 1
        while index < characters.count {
            if let end = endOfQuote(characters, at: index) { index = end + 1; continue }
            switch characters[index] {
            case "(": depth += 1
            case ")" where depth == 0:
                items.append(String(characters[start..<index]))
                return (items.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, index)
            case ")": depth -= 1
            case "," where depth == 0:
                items.append(String(characters[start..<index]))
                start = index + 1
            default: break
            }
            index += 1
        }
        return nil
    }

    /// `lower(email) COLLATE NOCASE DESC` → `lower(email)`.
    private static func stripSuffixes(_ term: String) -> String {
        var text = term
        for pattern in [#"(?i)\s+(ASC|DESC)\s*$"#, #"(?i)\s+COLLATE\s+("[^"]*"|\S+)\s*$"#] {
            if let range = text.range(of: pattern, options: .regularExpression) { text.removeSubrange(range) }
        }
        return text
    }
}
