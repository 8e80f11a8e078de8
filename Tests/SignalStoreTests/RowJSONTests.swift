import Foundation
@testable import SignalStore
import Testing

/// `RowJSON` reads the whole-row objects the capture triggers write, value for value.
@Suite("Row JSON")
struct RowJSONTests {
    @Test("integers at Int64's bounds, negative and zero; reals; texts with escapes; blobs and infinities")
    func values() throws {
        let json = #"{"a":9223372036854775807,"b":-9223372036854775808,"c":-0,"d":0,"e":-42,"f":1.5,"g":-2e3,"#
            + #""h":"x\"y\\z\n\u00e9","i":{"$blob":"00ff"},"j":{"$real":"-Inf"},"k":null,"l":""}"#
        let members = try #require(RowJSON.decodeMembers(json))
        #expect(members.map(\.column) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"])
        #expect(members.map(\.value) == [
            .integer(.max), .integer(.min), .integer(0), .integer(0), .integer(-42), .real(1.5), .real(-2000),
            .text("x\"y\\z\né"), .blob(Data([0x00, 0xFF])), .real(-.infinity), .null, .text(""),
        ])
    }

    @Test("what is not a row is nil", arguments: [
        "", "{", #"{"a":}"#, #"{"a":9223372036854775808}"#, #"{"a":-}"#, #"{"a":1"#, #"{"a":1}x"#, #"{"a" 1}"#,
    ])
    func malformed(json: String) {
        #expect(RowJSON.decodeMembers(json) == nil)
    }
}
