import SignalStore

/// How SQLite values appear in human output and in JSON.
enum ValueFormat {
    /// `null` for NULL, numbers as usual, blobs as `x'0AFF'`, text as is (control characters
    /// escaped), except text that would read as something else, which is shown in single quotes
    /// as it is typed: `''` (empty), `'null'`, `' padded '`. The same forms as `set` and
    /// `insert` take.
    static func human(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let text) where isAmbiguous(text): return "'" + escapingControls(in: text).replacingOccurrences(of: "'", with: "''") + "'"
        case .text(let text): return escapingControls(in: text)
        case .blob(let data): return "x'" + data.map { hex($0) }.joined() + "'"
        }
    }

    /// Whether text shown as is could be mistaken for NULL, for nothing, or for another form.
    private static func isAmbiguous(_ text: String) -> Bool {
        text.isEmpty || text.lowercased() == "null" || text.first?.isWhitespace == true || text.last?.isWhitespace == true
            || (text.count >= 2 && text.hasPrefix("'") && text.hasSuffix("'"))
            || (text.lowercased().hasPrefix("x'") && ValueParser.hexBytes(text) != nil)
    }

    /// A value for scripts (`get TABLE ID COLUMN`): text exactly as stored, numbers, blobs as
    /// `x'0AFF'`, and NULL as an empty line, as `sqlite3` prints it; `--json` tells NULL
    /// (`null`) from empty text (`""`).
    static func raw(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return ""
        case .text(let text): return text
        default: return human(value)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
