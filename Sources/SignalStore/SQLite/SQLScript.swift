import CSQLite

/// SQL text split into complete statements, each with the line it starts on.
///
/// Splitting uses SQLite's own `sqlite3_complete`, so semicolons inside strings, comments and
/// trigger bodies are handled exactly as SQLite handles them.
package struct SQLScript {
    /// One statement of the script.
    package struct Statement {
        /// The statement's text, without surrounding blank lines.
        package let sql: String
        /// The 1-based line of the script on which the statement starts.
        package let line: Int
    }

    private let text: String

    package init(_ text: String) {
        self.text = text
    }

    /// The statements in order. Trailing text that is not a complete statement (only comments
    /// or whitespace) is ignored; an unterminated statement is returned as is, so that SQLite
    /// reports its error.
    package func statements() throws(SQLiteError) -> [Statement] {
        var result: [Statement] = []
        var current = ""
        var startLine = 1
        var line = 1
        for character in text {
            if current.allSatisfy(\.isWhitespace) {
                startLine = line
                if character.isWhitespace {
                    if character == "\n" { line += 1 }
                    current = ""
                    continue
                }
            }
            current.append(character)
            if character == "\n" { line += 1 }
            if character == ";", sqlite3_complete(current) != 0 {
                result.append(Self.statement(current, startingAt: startLine))
                current = ""
            }
        }
        if !current.trimmingWhitespace().isEmpty, !Self.isOnlyComments(current) {
            result.append(Self.statement(current, startingAt: startLine))
        }
        return result
    }

    /// The statement without its leading comment lines, and the line of its first SQL.
    private static func statement(_ text: String, startingAt line: Int) -> Statement {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var line = line
        while let first = lines.first, lines.count > 1, first.trimmingWhitespace().isEmpty || first.trimmingWhitespace().hasPrefix("--") {
            lines.removeFirst()
            line += 1
        }
        return Statement(sql: lines.joined(separator: "\n").trimmingWhitespace(), line: line)
    }

    private static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingWhitespace().hasPrefix("--") || $0.trimmingWhitespace().isEmpty }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
