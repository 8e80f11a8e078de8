import Foundation
import SignalStore

/// Parses a value typed on the command line according to its column's declared type.
///
/// - `null` is SQL NULL; for a text column, `'null'` (in single quotes) is the text "null", and
///   any value in single quotes is taken literally without them (`''` is empty text).
/// - `x0aff` in a text or untyped column is refused: it is what the shell leaves of an
///   unquoted `x'0aff'`, and the error gives both quoted forms.
/// - INTEGER columns take whole numbers, REAL columns numbers, NUMERIC columns either.
/// - TEXT columns take the text as given, or bytes written as SQL writes them (`x'0aff'`).
/// - BLOB columns take hex bytes: `x'0aff'`, `0x0aff` or `0aff`.
/// - Columns without a declared type take a whole number, else a number, else bytes written
///   as SQL writes them (`x'0aff'`), else text.
enum ValueParser {
    static func parse(_ text: String, for column: ColumnSchema, in table: String) throws(CLIError) -> SQLiteValue {
        if text == "null" { return .null }
        let place = "\(table).\(column.name)"
        switch column.affinity {
        case .integer:
            if let value = Int64(text) { return .integer(value) }
            throw CLIError("\(place) is \(column.declaredType): \(display(text)) is not a whole number; give one like 42 (or null)")
        case .real:
            if let value = finiteDouble(text) { return .real(value) }
            throw CLIError("\(place) is \(column.declaredType): \(display(text)) is not a number; give one like 2.5 (or null)")
        case .numeric:
            if let value = Int64(text) { return .integer(value) }
            if let value = finiteDouble(text) { return .real(value) }
            throw CLIError("\(place) is \(column.declaredType): \(display(text)) is not a number; give one like 42 or 2.5 (or null)")
        case .text:
            if let bytes = sqlBytesLiteral(text) { return .blob(Data(bytes)) }
            try refuseMangledBytes(text, column: column.name)
            return .text(unquoted(text))
        case .blob:
            if column.declaredType.isEmpty { return try untyped(text, column: column.name) }
            if let bytes = hexBytes(text) { return .blob(Data(bytes)) }
            if isMangledBytes(text) {
                throw CLIError("\(place) is \(column.declaredType): \(display(text)) is x'\(text.dropFirst())' without its quotes, which the shell removed; quote the whole assignment: \"\(column.name)=x'\(text.dropFirst())'\"")
            }
            throw CLIError("\(place) is \(column.declaredType): \(display(text)) is not hex bytes; give them like \"\(column.name)=x'0aff'\" (or null)")
        }
    }

    private static func untyped(_ text: String, column: String) throws(CLIError) -> SQLiteValue {
        if let value = Int64(text) { return .integer(value) }
        if let value = finiteDouble(text) { return .real(value) }
        if let bytes = sqlBytesLiteral(text) { return .blob(Data(bytes)) }
        try refuseMangledBytes(text, column: column)
        return .text(unquoted(text))
    }

    /// `x'0aff'`, the form SQL writes bytes in: bytes in any column, as in SQL.
    private static func sqlBytesLiteral(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("x'") || text.hasPrefix("X'") else { return nil }
        return hexBytes(text)
    }

    /// `x0aff`: what the shell leaves of an unquoted `x'0aff'`. Stored as text it would be
    /// neither the bytes meant nor, likely, the text meant: refused, with both fixes.
    private static func refuseMangledBytes(_ text: String, column: String) throws(CLIError) {
        guard isMangledBytes(text) else { return }
        let digits = text.dropFirst()
        throw CLIError("\(column)=\(text) is ambiguous: the shell removes quotes, so x'\(digits)' arrives as \(text); quote the whole assignment: \"\(column)=x'\(digits)'\" for bytes, \"\(column)='\(text)'\" for the text")
    }

    private static func isMangledBytes(_ text: String) -> Bool {
        guard text.count >= 3, text.first == "x" || text.first == "X" else { return false }
        let digits = text.dropFirst()
        return digits.count.isMultiple(of: 2) && digits.allSatisfy(\.isHexDigit)
    }

    /// A finite number in decimal notation (not `nan`, `inf` or hex floats).
    private static func finiteDouble(_ text: String) -> Double? {
        guard text.allSatisfy({ "0123456789+-.eE".contains($0) }), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// The bytes of `x'…'`, `0x…` or plain hex with an even number of digits.
    static func hexBytes(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        if (digits.hasPrefix("x'") || digits.hasPrefix("X'")) && digits.hasSuffix("'") && digits.count >= 3 {
            digits = digits.dropFirst(2).dropLast()
        } else if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
        }
        guard digits.count.isMultiple(of: 2), digits.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
