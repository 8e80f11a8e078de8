/// Writes JSON string literals: the one escaper for the JSON that SignalStore's products write
/// by hand (the CLI's `--json` output, the values sync puts in the server's log).
///
/// The byte loops index a base pointer and compare with `==` and `<` only: in a debug build
/// (what `swift run` gives a user) those are inlined, while a buffer's or a view's subscript,
/// `UInt8(ascii:)` and a `switch` over bytes each call the standard library's generic code per
/// byte, which made escaping a tenth of a sync process's CPU there.
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
        var text = text
        text.withUTF8 { appendLiteral(of: $0, to: &output) }
    }

    /// The literal of the UTF-8 `source`. Text with escapes is measured first and written
    /// through a pointer into an array of that size, appended at once: sync's payloads are
    /// JSON, a quote every few bytes.
    private static func appendLiteral(of source: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let quote: UInt8 = 0x22
        guard let base = source.baseAddress else {
            output.append(quote); output.append(quote)
            return
        }
        let count = source.count
        var length = count + 2, index = 0
        while index < count {
            length += extraBytes(escaping: base[index])
            index += 1
        }
        guard length > count + 2 else {
            output.append(quote); output.append(contentsOf: source); output.append(quote)
            return
        }
        output.append(contentsOf: [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            let target = buffer.baseAddress!
            target[0] = quote
            var written = 1, index = 0
            while index < count {
                written += write(base[index], escapedTo: target + written)
                index += 1
            }
            target[written] = quote
            initialized = written + 1
        })
    }

    /// How many more bytes than one `byte` takes in a literal: `"`, `\`, newline, return and
    /// tab take a backslash; other control characters are `\u00XX`.
    private static func extraBytes(escaping byte: UInt8) -> Int {
        if byte == 0x22 || byte == 0x5C { return 1 }
        guard byte < 0x20 else { return 0 }
        return byte == 0x0A || byte == 0x0D || byte == 0x09 ? 1 : 5
    }

    /// Writes `byte` as a literal holds it at `target`; returns how many bytes it wrote.
    private static func write(_ byte: UInt8, escapedTo target: UnsafeMutablePointer<UInt8>) -> Int {
        let backslash: UInt8 = 0x5C
        if byte == 0x22 || byte == backslash {
            target[0] = backslash; target[1] = byte
            return 2
        }
        guard byte < 0x20 else {
            target[0] = byte
            return 1
        }
        target[0] = backslash
        if byte == 0x0A { target[1] = 0x6E; return 2 }   // \n
        if byte == 0x0D { target[1] = 0x72; return 2 }   // \r
        if byte == 0x09 { target[1] = 0x74; return 2 }   // \t
        let low = byte & 0x0F
        target[1] = 0x75; target[2] = 0x30; target[3] = 0x30   // u00
        target[4] = byte < 0x10 ? 0x30 : 0x31
        target[5] = low < 10 ? 0x30 + low : 0x57 + low       // 0-9, a-f
        return 6
    }

    private static func needsEscapes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { source in
            guard let base = source.baseAddress else { return false }
            let count = source.count
            var index = 0
            while index < count {
                if extraBytes(escaping: base[index]) > 0 { return true }
                index += 1
            }
            return false
        }
    }
}
