/// `text` as it appears in a message: quoted, on one line, control and format characters
/// escaped, and shortened when long, so hostile input cannot break or flood the error line.
func display(_ text: String, limit: Int = 80) -> String {
    var escaped = escapingControls(in: text, alsoEscaping: ["'", "\\"], formatCharacters: true)
    if escaped.count > limit { escaped = String(escaped.prefix(limit)) + "…" }
    return "'\(escaped)'"
}

/// `text` on one line: newlines, tabs and other control characters written as escapes, and a
/// backslash before each of `extra`. With `formatCharacters`, invisible format characters
/// (zero-width, direction overrides) are escaped too.
func escapingControls(in text: String, alsoEscaping extra: Set<Unicode.Scalar> = [], formatCharacters: Bool = false) -> String {
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .control || (formatCharacters && category == .format) || extra.contains(scalar)
    }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        case _ where extra.contains(scalar): escaped += "\\" + String(scalar)
        case _ where needsEscape(scalar): escaped += "\\u{\(String(scalar.value, radix: 16))}"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}
