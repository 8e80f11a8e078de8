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

    /// Whether `text` is one statement, as SQLite reads it, by a look at its bytes: it starts
    /// with a word (after blanks, so not with a comment) and has no `;` but a last one. Text
    /// that fails this may still be one statement (a `;` in a string); ``statements()`` tells.
    package static func isOneStatement(_ text: String) -> Bool {
        let isOne = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            var end = bytes.count
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            if end > start, bytes[end - 1] == UInt8(ascii: ";") { end -= 1 }
            guard start < end, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[start] | 0x20) else { return false }
            var index = start
            while index < end {
                if bytes[index] == UInt8(ascii: ";") { return false }
                index += 1
            }
            return true
        }
        return isOne ?? false
    }

    /// SQLite's blanks: space, tab, newline, vertical tab, form feed and carriage return.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
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
