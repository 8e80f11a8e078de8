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
        output += "\""
        defer { output += "\"" }
        // Most text needs no escape: appended whole.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}
