import Foundation

/// Decodes the whole-row JSON objects written by the capture triggers.
///
/// A small parser for exactly what the triggers write: one flat object whose values are
/// `null`, numbers, strings, or the markers `{"$blob": "HEX"}` and `{"$real": "Inf"}`.
/// Numbers with a fraction or exponent are reals (parsed exactly); others are integers.
enum RowJSON {
    static func decode(_ json: String) -> [String: SQLiteValue]? {
        Parser.parse(json) { $0.parseRow() }
    }

    /// The row's columns and values in the order the JSON has them (the table's column order,
    /// as the triggers write it), without building a dictionary.
    static func decodeMembers(_ json: String) -> [(column: String, value: SQLiteValue)]? {
        Parser.parse(json) { parser in
            guard let members = parser.parseMembers() else { return nil }
            parser.skipWhitespace()
            return parser.index == parser.count ? members : nil
        }
    }

    /// Decodes one flat object in which a nested object that is not a value marker is kept as
    /// its JSON text: an entry of ``ChangeJSON``, whose `row` is such an object.
    static func decodeEntry(_ json: String) -> [String: SQLiteValue]? {
        Parser.parse(json) { parser in
            parser.keepsNestedObjectsAsText = true
            return parser.parseRow()
        }
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

    /// Indexes a base pointer and compares bytes with `==`: in a debug build (what `swift run`
    /// gives a user) those are inlined, while an array's subscript and a `switch` over bytes
    /// call the standard library's generic code per byte (sync decodes a row per local write).
    private struct Parser {
        let base: UnsafePointer<UInt8>
        let count: Int
        var index = 0
        /// Whether an object that is not a marker is a value (its JSON text) rather than an error.
        var keepsNestedObjectsAsText = false

        /// Runs `body` with a parser over `json`'s UTF-8 bytes; `nil` for empty text.
        static func parse<Result>(_ json: String, _ body: (inout Parser) -> Result?) -> Result? {
            var text = json
            return text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return nil }
                var parser = Parser(base: base, count: bytes.count)
                return body(&parser)
            }
        }

        /// The text of the bytes from `start` up to the current index.
        func text(from start: Int) -> String {
            String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        }

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
            guard index < count else { return nil }
            let first = base[index]
            if first == 0x22 { return parseString().map(SQLiteValue.text) }   // "
            if first == 0x7B { return parseMarker() }                          // {
            if first == 0x6E { return consumeWord("null") ? .null : nil }      // n
            if first == 0x74 { return consumeWord("true") ? .integer(1) : nil }
            if first == 0x66 { return consumeWord("false") ? .integer(0) : nil }
            return parseNumber()
        }

        mutating func parseMarker() -> SQLiteValue? {
            skipWhitespace()
            let start = index
            guard let marker = parseRow() else { return nil }
            if keepsNestedObjectsAsText, marker.count != 1 || !(marker.keys.first?.hasPrefix("$") ?? false) {
                return .text(text(from: start))
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
            while index < count {
                let byte = base[index]
                if byte &- 0x30 < 10 || byte == 0x2B || byte == 0x2D {          // 0-9 + -
                } else if byte == 0x2E || byte == 0x65 || byte == 0x45 {       // . e E
                    isReal = true
                } else {
                    break
                }
                index += 1
            }
            if !isReal, let integer = DecimalInteger.read(base, from: start, to: index) { return .integer(integer) }
            let number = text(from: start)
            return isReal ? Double(number).map(SQLiteValue.real) : Int64(number).map(SQLiteValue.integer)
        }


        mutating func parseString() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            // Most strings hold no escape: made from their bytes at once.
            let start = index
            while index < count, base[index] != 0x22, base[index] != 0x5C { index += 1 }   // " \
            if index < count, base[index] == 0x22 {
                defer { index += 1 }
                return text(from: start)
            }
            index = start
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
            while index < count {
                let byte = base[index]
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
                guard index < count, let scalar = parseEscape() else { return nil }
                scalars.append(scalar)
            }
            return nil
        }

        mutating func parseEscape() -> Unicode.Scalar? {
            let byte = base[index]
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
            guard index + 4 <= count, let value = UInt32(String(decoding: UnsafeBufferPointer(start: base + index, count: 4), as: UTF8.self), radix: 16) else {
                return nil
            }
            index += 4
            return value
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < count, base[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func consumeWord(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard index + length <= count else { return false }
            var offset = 0
            while offset < length {
                guard base[index + offset] == word.utf8Start[offset] else { return false }
                offset += 1
            }
            index += length
            return true
        }

        mutating func skipWhitespace() {
            while index < count {
                let byte = base[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
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
