import Foundation
@testable import SignalStore
import Testing

/// `JSONValue(parsing:)` reads what SignalStore writes (sync's server log), agrees with
/// Foundation's `JSONSerialization` on valid documents, and refuses what is not JSON.
@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("every string JSONString writes reads back as itself: escapes, control characters, NUL, emoji and combining marks")
    func stringsRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "\u{301}", "😀", "\u{FFFF}", "\u{10FFFF}"]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...12, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<count { text.append(pool.randomElement(using: &generator)!) }
            let string = String(text)
            let parsed = try #require(JSONValue(parsing: JSONString.literal(string)), "\(JSONString.literal(string))")
            guard case .string(let back) = parsed else { Issue.record("not a string: \(parsed)"); continue }
            #expect(back.unicodeScalars.elementsEqual(string.unicodeScalars), "\(JSONString.literal(string))")
        }
    }

    @Test("escapes other writers use: \\/, \\b, \\f, \\u with either case, and surrogate pairs")
    func escapes() {
        #expect(parsedString(#""a\/b\b\f\u00e9\u00E9\ud83d\ude00""#) == "a/b\u{08}\u{0C}éé😀")
        #expect(parsedString(#""\u0000""#) == "\u{0}")
    }

    @Test("numbers: integers that fit Int64 stay exact, the rest are doubles")
    func numbers() {
        #expect(JSONValue(parsing: "9223372036854775807").map(describe) == "integer 9223372036854775807")
        #expect(JSONValue(parsing: "-9223372036854775808").map(describe) == "integer -9223372036854775808")
        #expect(JSONValue(parsing: "9223372036854775808").map(describe) == "number 9.223372036854776e+18")
        #expect(JSONValue(parsing: "-0.5e-3").map(describe) == "number -0.0005")
        #expect(JSONValue(parsing: "1E2").map(describe) == "number 100.0")
    }

    @Test("documents agree with JSONSerialization: objects keep members in order, whitespace anywhere between tokens")
    func documents() throws {
        let text = " { \"b\" : [ 1 , -2.5 , true , false , null , \"x\" ] ,\n\t\"a\" : { } , \"c\" : [ ] } "
        let parsed = try #require(JSONValue(parsing: text))
        #expect(parsed.rendered == #"{"b":[1,-2.5,true,false,null,"x"],"a":{},"c":[]}"#)
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(foundation?.keys.sorted() == ["a", "b", "c"])
    }

    @Test("what is not JSON is refused, not guessed at", arguments: [
        "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "\"open", "\"bad \\x escape\"",
        "\"raw\ncontrol\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\u12\"", "01x", "-", "1.", "1e", "nul", "truex", "[1] [2]", "1 2",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(JSONValue(parsing: text) == nil, "\(text)")
    }

    @Test("nesting deeper than 512 levels is refused without exhausting the stack")
    func deepNesting() {
        #expect(JSONValue(parsing: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
        #expect(JSONValue(parsing: String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) != nil)
    }

    @Test("a row rendered straight from its values reads as the document JSONValue(row:) renders: every kind of SQLite value")
    func rowRenderedDirectly() {
        let values: [SQLiteValue] = [
            .null, .integer(0), .integer(-42), .integer(.max), .integer(.min), .real(1.5), .real(-0.0), .real(3), .real(1e300),
            .real(.infinity), .real(-.infinity), .text(""), .text("a \"quoted\" \\ line\n\u{0}é😀"), .blob(Data()), .blob(Data([0x00, 0xAB, 0xFF])),
        ]
        let row = values.enumerated().map { ("column \($0.offset) \"x\"", $0.element) }
        #expect(JSONValue.rendered(row: row) == JSONValue(row: row).rendered)
        #expect(JSONValue.rendered(row: []) == "{}")
    }

    private func parsedString(_ text: String) -> String? {
        guard case .string(let value)? = JSONValue(parsing: text) else { return nil }
        return value
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .integer(let number): "integer \(number)"
        case .number(let number): "number \(number)"
        default: value.rendered
        }
    }
}
