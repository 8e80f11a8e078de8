#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// How column values travel through the server's log: JSON that keeps SQLite's storage class
/// exactly, so every replica writes the very value the origin stored.
///
/// `null`, `{"i":42}`, `{"r":"1.5"}` (the real's shortest round-trip text, so `inf` and `-0.0`
/// survive), `{"t":"text"}`, `{"b":"base64"}`. A row is a JSON object of column → value, a row
/// key a JSON array of the primary key's values; both are written with sorted keys, so one key
/// always has one spelling.
enum SyncValueCoding {
    /// The JSON text of one value.
    static func encode(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return "{\"i\":\(number)}"
        case .real(let number): return "{\"r\":\(JSONString.literal(number.description))}"
        case .text(let text): return "{\"t\":\(JSONString.literal(text))}"
        case .blob(let bytes): return "{\"b\":\"\(bytes.base64EncodedString())\"}"
        }
    }

    /// The JSON text of a row key: the primary key's values in key order.
    static func encodeKey(_ values: [SQLiteValue]) -> String {
        "[" + values.map(encode).joined(separator: ",") + "]"
    }

    /// The JSON text of a whole row.
    static func encodeRow(_ row: [String: SQLiteValue]) -> String {
        "{" + row.keys.sorted().map { "\(JSONString.literal($0)):\(encode(row[$0] ?? .null))" }.joined(separator: ",") + "}"
    }

    /// The value that ``encode(_:)`` wrote, or `nil` if `json` is not one.
    static func decode(_ json: String) -> SQLiteValue? {
        JSONValue(parsing: json).flatMap(value(from:))
    }

    /// The values of a row key, or `nil` if `json` is not one.
    static func decodeKey(_ json: String) -> [SQLiteValue]? {
        guard case .array(let items)? = JSONValue(parsing: json) else { return nil }
        var values: [SQLiteValue] = []
        values.reserveCapacity(items.count)
        for item in items {
            guard let value = value(from: item) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The columns of a row, or `nil` if `json` is not one.
    static func decodeRow(_ json: String) -> [String: SQLiteValue]? {
        guard case .object(let members)? = JSONValue(parsing: json) else { return nil }
        var row: [String: SQLiteValue] = Dictionary(minimumCapacity: members.count)
        for (column, item) in members {
            guard let value = value(from: item) else { return nil }
            row[column] = value
        }
        return row
    }

    private static func value(from json: JSONValue) -> SQLiteValue? {
        switch json {
        case .null: return .null
        case .object(let members) where members.count == 1:
            switch members[0] {
            case ("i", .integer(let number)): return .integer(number)
            case ("r", .string(let text)): return Double(text).map(SQLiteValue.real)
            case ("t", .string(let text)): return .text(text)
            case ("b", .string(let base64)): return Data(base64Encoded: base64).map(SQLiteValue.blob)
            default: return nil
            }
        default: return nil
        }
    }
}
#endif
