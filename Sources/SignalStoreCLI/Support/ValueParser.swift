import Foundation
import SignalStore

/// Parses a value typed on the command line according to its column's declared type.
///
/// - `null` is SQL NULL; for a text column, `'null'` (in single quotes) is the text "null", and
///   any value in single quotes is taken literally without them.
/// - INTEGER columns take whole numbers, REAL columns numbers, NUMERIC columns either.
/// - TEXT columns take the text as given.
/// - BLOB columns take hex bytes: `x'0aff'`, `0x0aff` or `0aff`.
/// - Columns without a declared type take a whole number, else a number, else text.
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
            return .text(unquoted(text))
        case .blob:
            if column.declaredType.isEmpty { return untyped(text) }
            if let bytes = hexBytes(text) { return .blob(Data(bytes)) }
            throw CLIError("\(place) is \(column.declaredType): \(display(text)) is not hex bytes; give them like x'0aff' (or null)")
        }
    }

    private static func untyped(_ text: String) -> SQLiteValue {
        if let value = Int64(text) { return .integer(value) }
        if let value = finiteDouble(text) { return .real(value) }
        return .text(unquoted(text))
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
