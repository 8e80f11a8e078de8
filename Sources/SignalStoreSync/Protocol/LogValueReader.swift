#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// Reads the log's values (``SyncValueCoding``) straight from their UTF-8 bytes into
/// `SQLiteValue`s, without a JSON tree between: applying a big transaction decodes one row
/// per entry, and building and walking a tree for each cost more than the rest of decoding.
///
/// Accepts exactly what ``SyncValueCoding`` writes (and any JSON whitespace between tokens):
/// `null`, `{"i":N}`, `{"r":"TEXT"}`, `{"t":"TEXT"}`, `{"b":"BASE64"}`, arrays of them (keys),
/// and objects of them by column (rows). Anything else reads as `nil`.
struct LogValueReader {
    // A base pointer and a count, not a buffer, and `==` and `<` on bytes, not `switch` or
    // `UInt8(ascii:)`: in a debug build (what `swift run` gives a user) those are inlined, the
    // others call the standard library's generic code per byte (JSONString says the same).
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0

    private init(_ base: UnsafePointer<UInt8>, _ count: Int) {
        self.base = base
        self.count = count
    }

    /// One value.
    static func value(_ json: String) -> SQLiteValue? {
        read(json) { reader in try reader.value() }
    }

    /// A key: an array of values.
    static func key(_ json: String) -> [SQLiteValue]? {
        read(json) { reader in
            var values: [SQLiteValue] = []
            try reader.expect(Byte.openBracket)
            if !reader.consume(Byte.closeBracket) {
                repeat { values.append(try reader.value()) } while reader.consume(Byte.comma)
                try reader.expect(Byte.closeBracket)
            }
            return values
        }
    }

    /// A row: an object of values by column, the columns in the order the text has them.
    static func row(_ json: String) -> [(column: String, value: SQLiteValue)]? {
        read(json) { reader in
            var members: [(column: String, value: SQLiteValue)] = []
            members.reserveCapacity(16)   // most rows: one allocation, not one per doubling
            try reader.expect(Byte.openBrace)
            if !reader.consume(Byte.closeBrace) {
                repeat {
                    let column = try reader.string()
                    try reader.expect(Byte.colon)
                    members.append((column, try reader.value()))
                } while reader.consume(Byte.comma)
                try reader.expect(Byte.closeBrace)
            }
            return members
        }
    }

    /// Runs `body` over the text's bytes; `nil` if it fails or leaves anything but whitespace.
    private static func read<Result>(_ json: String, _ body: (inout LogValueReader) throws -> Result) -> Result? {
        var text = json
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }   // empty: no value
            var reader = LogValueReader(base, bytes.count)
            guard let result = try? body(&reader) else { return nil }
            reader.skipWhitespace()
            return reader.index == reader.count ? result : nil
        }
    }

    private struct Malformed: Error {}

    /// The bytes the reader looks for, named.
    private enum Byte {
        static var quote: UInt8 { 0x22 }
        static var backslash: UInt8 { 0x5C }
        static var comma: UInt8 { 0x2C }
        static var colon: UInt8 { 0x3A }
        static var openBrace: UInt8 { 0x7B }
        static var closeBrace: UInt8 { 0x7D }
        static var openBracket: UInt8 { 0x5B }
        static var closeBracket: UInt8 { 0x5D }
    }

    private mutating func value() throws -> SQLiteValue {
        skipWhitespace()
        if consumeLiteral("null") { return .null }
        try expect(Byte.openBrace)
        let tag = try tagLetter()
        try expect(Byte.colon)
        let value: SQLiteValue
        if tag == 0x69 {          // i
            value = .integer(try integer())
        } else if tag == 0x74 {   // t
            value = .text(try string())
        } else if tag == 0x72 {   // r
            guard let number = Double(try string()) else { throw Malformed() }
            value = .real(number)
        } else if tag == 0x62 {   // b
            guard let data = Data(base64Encoded: try string()) else { throw Malformed() }
            value = .blob(data)
        } else {
            throw Malformed()
        }
        try expect(Byte.closeBrace)
        return value
    }

    /// A value's tag: a string of one letter, as ``SyncValueCoding`` writes it.
    private mutating func tagLetter() throws -> UInt8 {
        try expect(Byte.quote)
        guard index + 1 < count, base[index + 1] == Byte.quote else { throw Malformed() }
        defer { index += 2 }
        return base[index]
    }

    private mutating func integer() throws -> Int64 {
        skipWhitespace()
        let start = index
        if index < count, base[index] == 0x2D { index += 1 }   // -
        while index < count, base[index] &- 0x30 < 10 { index += 1 }
        guard let value = DecimalInteger.read(base, from: start, to: index) else { throw Malformed() }
        return value
    }

    /// A JSON string; one without escapes is copied in one go.
    private mutating func string() throws -> String {
        try expect(Byte.quote)
        let start = index
        while index < count {
            let byte = base[index]
            if byte == Byte.quote {
                let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
                index += 1
                return text
            }
            if byte == Byte.backslash { return try escapedString(from: start) }
            index += 1
        }
        throw Malformed()
    }

    /// The rest of a string that has escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        var utf8 = Array(UnsafeBufferPointer(start: base + start, count: index - start))
        while index < count {
            let byte = base[index]
            index += 1
            if byte == Byte.quote { return String(decoding: utf8, as: UTF8.self) }
            guard byte == Byte.backslash else {
                utf8.append(byte)
                continue
            }
            guard index < count else { throw Malformed() }
            let escape = base[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: String(try unicodeScalar()).utf8)
            default: throw Malformed()
            }
        }
        throw Malformed()
    }

    /// The scalar of a `\u` escape (its `\u` read), a surrogate pair's second half included.
    private mutating func unicodeScalar() throws -> Unicode.Scalar {
        let first = try hex4()
        if (0xD800..<0xDC00).contains(first) {
            guard consumeLiteral("\\u") else { throw Malformed() }
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second), let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else { throw Malformed() }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw Malformed() }
        return scalar
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= count else { throw Malformed() }
        var result: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[index]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            result = result << 4 | UInt32(digit)
            index += 1
        }
        return result
    }

    private mutating func skipWhitespace() {
        while index < count {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    /// Skips whitespace; then consumes `byte` and returns `true` if it is next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < count, base[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard consume(byte) else { throw Malformed() }
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= count else { return false }
        let expected = literal.utf8Start
        var offset = 0
        while offset < length {
            guard base[index + offset] == expected[offset] else { return false }
            offset += 1
        }
        index += length
        return true
    }
}
#endif
