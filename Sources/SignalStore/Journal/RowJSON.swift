import Foundation

/// Decodes the whole-row JSON objects written by the capture triggers.
///
/// A small parser for exactly what the triggers write: one flat object whose values are
/// `null`, numbers, strings, or the markers `{"$blob": "HEX"}` and `{"$real": "Inf"}`.
/// Numbers with a fraction or exponent are reals (parsed exactly); others are integers.
enum RowJSON {
    static func decode(_ json: String) -> [String: SQLiteValue]? {
        var parser = Parser(bytes: Array(json.utf8))
        return parser.parseRow()
    }

    /// The row's columns and values in the order the JSON has them (the table's column order,
    /// as the triggers write it), without building a dictionary.
    static func decodeMembers(_ json: String) -> [(column: String, value: SQLiteValue)]? {
        var parser = Parser(bytes: Array(json.utf8))
        guard let members = parser.parseMembers() else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? members : nil
    }

    /// Decodes one flat object in which a nested object that is not a value marker is kept as
    /// its JSON text: an entry of ``ChangeJSON``, whose `row` is such an object.
    static func decodeEntry(_ json: String) -> [String: SQLiteValue]? {
        var parser = Parser(bytes: Array(json.utf8))
        parser.keepsNestedObjectsAsText = true
        return parser.parseRow()
    }

    /// `json` with every real number in Swift's shortest form that reads back as the same
    /// `Double`. SQLite writes a real that 15 digits do not round-trip with 20
    /// (`1.79563444518800234802e+09`) and others with 15 (`1795634443.93301`), so the same kind
    /// of value would print two ways from one run to the next.
    static func canonical(_ json: String) -> String {
        var output = ""
        output.reserveCapacity(json.utf8.count)
        var number = ""
        var inString = false
        var escaped = false
        func flush() {
            if number.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Double(number) {
                output += "\(value)"
            } else {
                output += number
            }
            number = ""
        }
        for character in json {
            if inString {
                output.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character.isNumber || character == "-" || character == "+" || character == "." || character == "e" || character == "E" {
                number.append(character)
            } else {
                flush()
                if character == "\"" { inString = true }
                output.append(character)
            }
        }
        flush()
        return output
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        /// Whether an object that is not a marker is a value (its JSON text) rather than an error.
        var keepsNestedObjectsAsText = false

        mutating func parseRow() -> [String: SQLiteValue]? {
            guard let members = parseMembers() else { return nil }
            var row: [String: SQLiteValue] = Dictionary(minimumCapacity: members.count)
            for (column, value) in members { row[column] = value }
            return row
        }

        /// An object's members, in order.
        mutating func parseMembers() -> [(column: String, value: SQLiteValue)]? {
            guard consume(UInt8(ascii: "{")) else { return nil }
            var members: [(column: String, value: SQLiteValue)] = []
            if consume(UInt8(ascii: "}")) { return members }
            repeat {
                guard let key = parseString(), consume(UInt8(ascii: ":")), let value = parseValue() else { return nil }
                members.append((key, value))
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? members : nil
        }

        mutating func parseValue() -> SQLiteValue? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return parseString().map(SQLiteValue.text)
            case UInt8(ascii: "{"): return parseMarker()
            case UInt8(ascii: "n"): return consumeWord("null") ? .null : nil
            case UInt8(ascii: "t"): return consumeWord("true") ? .integer(1) : nil
            case UInt8(ascii: "f"): return consumeWord("false") ? .integer(0) : nil
            default: return parseNumber()
            }
        }

        mutating func parseMarker() -> SQLiteValue? {
            skipWhitespace()
            let start = index
            guard let marker = parseRow() else { return nil }
            if keepsNestedObjectsAsText, marker.count != 1 || !(marker.keys.first?.hasPrefix("$") ?? false) {
                return .text(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            guard marker.count == 1, case .text(let text)? = marker.first?.value else { return nil }
            switch marker.first?.key {
            case "$blob": return Self.bytes(fromHex: text).map { .blob(Data($0)) }
            case "$real": return text.hasPrefix("-") ? .real(-.infinity) : .real(.infinity)
            default: return nil
            }
        }

        mutating func parseNumber() -> SQLiteValue? {
            let start = index
            var isReal = false
            scan: while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"): break
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isReal = true
                default: break scan
                }
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return isReal ? Double(text).map(SQLiteValue.real) : Int64(text).map(SQLiteValue.integer)
        }

        mutating func parseString() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            // Most strings hold no escape: made from their bytes at once.
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                defer { index = end + 1 }
                return String(decoding: bytes[index..<end], as: UTF8.self)
            }
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    utf8.append(byte)
                    continue
                }
                flush()
                guard index < bytes.count, let scalar = parseEscape() else { return nil }
                scalars.append(scalar)
            }
            return nil
        }

        mutating func parseEscape() -> Unicode.Scalar? {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "u"): return parseUnicodeEscape()
            default: return Unicode.Scalar(byte)
            }
        }

        /// `\uXXXX`, including a surrogate pair `\uD83D\uDE00`.
        mutating func parseUnicodeEscape() -> Unicode.Scalar? {
            guard let high = parseHex4() else { return nil }
            guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
            guard consumeWord("\\u"), let low = parseHex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        mutating func parseHex4() -> UInt32? {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                return nil
            }
            index += 4
            return value
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func consumeWord(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        static func bytes(fromHex hex: String) -> [UInt8]? {
            let digits = Array(hex.utf8)
            guard digits.count.isMultiple(of: 2) else { return nil }
            return stride(from: 0, to: digits.count, by: 2).compactMap { offset in
                UInt8(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16)
            }
        }
    }
}
