import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// The value as SQL source: `NULL`, `42`, `'it''s'`, `X'00FF'`.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let value): return "'\(value.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let value): return "X'\(value.map { String(format: "%02X", $0) }.joined())'"
        }
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The text, for `.text`; `nil` otherwise.
    package var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The integer, for `.integer`; `nil` otherwise.
    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
