#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import Testing

/// The log's values are read by a decoder of their own (issue 39: applying at SQLite's pace),
/// not a JSON tree: it must read back exactly what the encoder writes, and nothing else.
@Suite("Sync: the log's values read back exactly as written")
struct LogValueReaderTests {
    static let texts = ["", "plain", "quote \" and backslash \\ and slash /", "controls \u{8}\u{C}\n\r\t\u{1}\u{1F}",
                        "accents é ü ß", "emoji 🙂👍🏽", "nul \u{0} inside", "{\"i\":1}", "[1,2]"]
    static let values: [SQLiteValue] = [
        .null, .integer(0), .integer(-1), .integer(42), .integer(.max), .integer(.min),
        .real(0), .real(-2.5), .real(1e-300), .real(.pi), .real(.infinity), .real(-.infinity),
        .blob(Data()), .blob(Data([0, 1, 2, 255])),
    ] + texts.map(SQLiteValue.text)

    @Test("every kind of value, alone, in a key and in a row (column names with escapes too)")
    func roundTrips() {
        for value in Self.values {
            #expect(SyncValueCoding.decode(SyncValueCoding.encode(value)) == value, "\(value)")
        }
        #expect(SyncValueCoding.decodeKey(SyncValueCoding.encodeKey(Self.values)) == Self.values)
        #expect(SyncValueCoding.decodeKey("[]") == [])
        var row: [String: SQLiteValue] = [:]
        for (index, value) in Self.values.enumerated() { row["column \(index) \(Self.texts[index % Self.texts.count])"] = value }
        let encoded = SyncValueCoding.encodeRow(row)
        #expect(SyncValueCoding.decodeRow(encoded) == row)
        #expect(SyncValueCoding.decodeRowInOrder(encoded)?.map(\.column) == row.keys.sorted())
        #expect(SyncValueCoding.decodeRow("{}") == [:])
    }

    @Test("JSON escapes the encoder does not write, and whitespace between tokens, read as JSON reads them")
    func otherSpellings() {
        #expect(SyncValueCoding.decode(#"{"t":"\u00e9\ud83d\ude42\/"}"#) == .text("é🙂/"))
        #expect(SyncValueCoding.decodeKey(" [ {\"i\" : -7} , null ]\n") == [.integer(-7), .null])
        #expect(SyncValueCoding.decodeRow("{ \"a\" : { \"t\" : \"x\" } }") == ["a": .text("x")])
    }

    @Test("a row has one text whatever order its members come in and whatever order the caller says they sort in")
    func rowTextIsCanonical() {
        let members: [(column: String, value: SQLiteValue)] = [("id", .integer(1)), ("note", .text("n")), ("amount", .real(2.5))]
        let canonical = #"{"amount":{"r":"2.5"},"id":{"i":1},"note":{"t":"n"}}"#
        #expect(SyncValueCoding.encodeRow(members) == canonical)
        for order in [[2, 0, 1], [0, 1, 2], [2, 2, 2], [2, 0], [5, 0, 1], [-1, 0, 1], []] {
            #expect(SyncValueCoding.encodeRow(members, nameOrder: order) == canonical, "\(order)")
        }
    }

    @Test("empty text is no value, no key and no row")
    func empty() {
        #expect(SyncValueCoding.decode("") == nil)
        #expect(SyncValueCoding.decodeKey("") == nil)
        #expect(SyncValueCoding.decodeRow("") == nil)
    }

    @Test("anything else is nil, never a guess or a crash", arguments: [
        "nul", "nulls", "{}", "{\"i\":}", "{\"i\":1.5}", "{\"i\":9223372036854775808}", "{\"i\":-9223372036854775809}",
        "{\"i\":\"1\"}", "{\"x\":1}", "{\"t\":1}", "{\"t\":\"open", "{\"t\":\"bad \\q escape\"}", "{\"t\":\"\\ud83d alone\"}",
        "{\"t\":\"\\u12\"}", "{\"r\":\"not a number\"}", "{\"b\":\"!!\"}", "{\"i\":1", "{\"i\":1}}", "[{\"i\":1}", "[{\"i\":1},]",
        "{\"\":1}", "{\"ii\":1}", "{\"i", "{\"i\"", "{\"i\":-}", "{\"t\":\"\\",
    ])
    func malformed(json: String) {
        #expect(SyncValueCoding.decode(json) == nil)
        #expect(SyncValueCoding.decodeKey("[" + json + "]") == nil)
        #expect(SyncValueCoding.decodeRow("{\"a\":" + json + "}") == nil)
    }
}
#endif
