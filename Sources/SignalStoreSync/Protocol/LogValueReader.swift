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
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// One value.
    static func value(_ json: String) -> SQLiteValue? {
        read(json) { reader in try reader.value() }
    }

    /// A key: an array of values.
    static func key(_ json: String) -> [SQLiteValue]? {
        read(json) { reader in
            var values: [SQLiteValue] = []
            try reader.expect(UInt8(ascii: "["))
            if !reader.consume(UInt8(ascii: "]")) {
                repeat { values.append(try reader.value()) } while reader.consume(UInt8(ascii: ","))
                try reader.expect(UInt8(ascii: "]"))
            }
            return values
        }
    }

    /// A row: an object of values by column, the columns in the order the text has them.
    static func row(_ json: String) -> [(column: String, value: SQLiteValue)]? {
        read(json) { reader in
            var members: [(column: String, value: SQLiteValue)] = []
            members.reserveCapacity(16)   // most rows: one allocation, not one per doubling
            try reader.expect(UInt8(ascii: "{"))
            if !reader.consume(UInt8(ascii: "}")) {
                repeat {
                    let column = try reader.string()
                    try reader.expect(UInt8(ascii: ":"))
                    members.append((column, try reader.value()))
                } while reader.consume(UInt8(ascii: ","))
                try reader.expect(UInt8(ascii: "}"))
            }
            return members
        }
    }

    /// Runs `body` over the text's bytes; `nil` if it fails or leaves anything but whitespace.
    private static func read<Result>(_ json: String, _ body: (inout LogValueReader) throws -> Result) -> Result? {
        var text = json
        return text.withUTF8 { bytes in
            var reader = LogValueReader(bytes)
            guard let result = try? body(&reader) else { return nil }
            reader.skipWhitespace()
            return reader.index == bytes.count ? result : nil
        }
    }

    private struct Malformed: Error {}

    private mutating func value() throws -> SQLiteValue {
        skipWhitespace()
        if consumeLiteral("null") { return .null }
        try expect(UInt8(ascii: "{"))
        let tag = try string()
        try expect(UInt8(ascii: ":"))
        let value: SQLiteValue
        switch tag {
        case "i": value = .integer(try integer())
        case "r": guard let number = Double(try string()) else { throw Malformed() }; value = .real(number)
        case "t": value = .text(try string())
        case "b": guard let data = Data(base64Encoded: try string()) else { throw Malformed() }; value = .blob(data)
        default: throw Malformed()
        }
        try expect(UInt8(ascii: "}"))
        return value
    }

    private mutating func integer() throws -> Int64 {
        skipWhitespace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw Malformed() }
            magnitude = sum
            index += 1
        }
        guard index > start else { throw Malformed() }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw Malformed() }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw Malformed() }
        return Int64(magnitude)
    }

    /// A JSON string; one without escapes is copied in one go.
    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                return try escapedString(from: start)
            default:
                index += 1
            }
        }
        throw Malformed()
    }

    /// The rest of a string that has escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Malformed() }
                let escape = bytes[index]
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
            default:
                utf8.append(byte)
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
        guard index + 4 <= bytes.count else { throw Malformed() }
        var result: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
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
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Skips whitespace; then consumes `byte` and returns `true` if it is next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard consume(byte) else { throw Malformed() }
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }
}
#endif
