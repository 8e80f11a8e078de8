import SignalStore

/// How SQLite values appear in human output and in JSON.
enum ValueFormat {
    /// `null`, numbers as usual, text as is (control characters escaped), blobs as `x'0AFF'`.
    static func human(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let text): return escapingControls(in: text)
        case .blob(let data): return "x'" + data.map { hex($0) }.joined() + "'"
        }
    }

    /// JSON: `null`, numbers, strings; a blob as `{"$blob": "0aff"}` and an infinite real as
    /// `{"$real": "Inf"}` or `"-Inf"`, the same markers as the change journal uses.
    static func json(_ value: SQLiteValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value) where value.isFinite: return .number(value)
        case .real(let value): return .object([("$real", .string(value < 0 ? "-Inf" : "Inf"))])
        case .text(let text): return .string(text)
        case .blob(let data): return .object([("$blob", .string(data.map { hex($0) }.joined().lowercased()))])
        }
    }

    /// A row as a JSON object, columns in schema order.
    static func json(row: [(String, SQLiteValue)]) -> JSONValue {
        .object(row.map { ($0.0, json($0.1)) })
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
