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
        encodeRow(row.map { (column: $0.key, value: $0.value) })
    }

    /// The JSON text of a whole row given as its members (each column once, in any order).
    /// - Parameter nameOrder: The members' indices in the order of their names, if the caller
    ///   knows it (``SyncedTables/nameOrder``: a table's rows come in one column order); it
    ///   is checked, and the members are sorted when it is wrong.
    static func encodeRow(_ members: [(column: String, value: SQLiteValue)], nameOrder: [Int]? = nil) -> String {
        // Bytes, not a String, and no interpolation or sort per row: the sender encodes a row
        // per local write, and in a debug build those cost more than the row.
        let order = nameOrder.flatMap { sortsByName(members, $0) ? $0 : nil }
            ?? members.indices.sorted { members[$0].column < members[$1].column }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(24 * members.count + 2)
        var index = 0
        while index < order.count {
            let member = members[order[index]]
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            index += 1
            JSONString.append(member.column, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            append(member.value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `order` lists every member once, by ascending name.
    private static func sortsByName(_ members: [(column: String, value: SQLiteValue)], _ order: [Int]) -> Bool {
        guard order.count == members.count else { return false }
        var index = 1
        while index < order.count {
            guard members.indices.contains(order[index - 1]), members.indices.contains(order[index]),
                  members[order[index - 1]].column < members[order[index]].column else { return false }
            index += 1
        }
        return true
    }

    /// Appends ``encode(_:)``'s text of `value` to `bytes`.
    private static func append(_ value: SQLiteValue, to bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .integer(let number):
            bytes.append(contentsOf: "{\"i\":".utf8)
            bytes.append(contentsOf: String(number).utf8)
            bytes.append(UInt8(ascii: "}"))
        case .text(let text):
            bytes.append(contentsOf: "{\"t\":".utf8)
            JSONString.append(text, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        case .real, .blob:
            bytes.append(contentsOf: encode(value).utf8)
        }
    }

    /// The value that ``encode(_:)`` wrote, or `nil` if `json` is not one.
    static func decode(_ json: String) -> SQLiteValue? {
        LogValueReader.value(json)
    }

    /// The values of a row key, or `nil` if `json` is not one.
    static func decodeKey(_ json: String) -> [SQLiteValue]? {
        LogValueReader.key(json)
    }

    /// The columns of a row, or `nil` if `json` is not one.
    static func decodeRow(_ json: String) -> [String: SQLiteValue]? {
        guard let members = LogValueReader.row(json) else { return nil }
        var row: [String: SQLiteValue] = Dictionary(minimumCapacity: members.count)
        for (column, value) in members { row[column] = value }
        return row
    }

    /// The columns of a row in the order ``encodeRow(_:)`` wrote them (by name), or `nil` if
    /// `json` is not one.
    static func decodeRowInOrder(_ json: String) -> [(column: String, value: SQLiteValue)]? {
        LogValueReader.row(json)
    }
}
#endif
