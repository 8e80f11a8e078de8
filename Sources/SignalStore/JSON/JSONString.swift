/// Writes JSON string literals: the one escaper for the JSON that SignalStore's products write
/// by hand (the CLI's `--json` output, the values sync puts in the server's log).
package enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    package static func literal(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }

    /// Appends `text` to `output` as a JSON string literal, quotes included: `"` and `\` are
    /// escaped, and so is every control character.
    package static func append(_ text: String, to output: inout String) {
        // Most text needs no escape: appended whole.
        guard needsEscapes(text) else {
            output += "\""
            output += text
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` to `output`, UTF-8 bytes, as a JSON string literal, escaped as the
    /// `String` form escapes.
    package static func append(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        defer { output.append(UInt8(ascii: "\"")) }
        guard needsEscapes(text) else {
            output.append(contentsOf: text.utf8)
            return
        }
        // Two appends, not an array literal: a literal allocated an array per escaped byte,
        // and every payload sync uploads is JSON, full of quotes.
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(byte)
            case UInt8(ascii: "\n"): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "t"))
            case ..<0x20:
                let hex = String(byte, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: output.append(byte)
            }
        }
    }

    private static func needsEscapes(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }
}
