/// `text` as it appears in a message: quoted, on one line, control and format characters
/// escaped, and shortened when long, so hostile input cannot break or flood the error line.
func display(_ text: String, limit: Int = 80) -> String {
    var escaped = escapingControls(in: text, alsoEscaping: ["'", "\\"], formatCharacters: true)
    if escaped.count > limit { escaped = String(escaped.prefix(limit)) + "…" }
    return "'\(escaped)'"
}

/// `text` on one line: newlines, tabs and other control characters written as escapes, and a
/// backslash before each of `extra`. The bidirectional controls (overrides, embeddings,
/// isolates and marks) are always escaped, so that no value can reorder what is printed after
/// it. With `formatCharacters`, every other invisible format character (zero-width ones) is
/// escaped too. With `keepingLineBreaks`, line breaks and tabs stay as they are, for output
/// that keeps a value's layout (the inspector's cells).
func escapingControls(in text: String, alsoEscaping extra: Set<Unicode.Scalar> = [], formatCharacters: Bool = false, keepingLineBreaks: Bool = false) -> String {
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if keepingLineBreaks, scalar == "\n" || scalar == "\r" || scalar == "\t" { return false }
        let category = scalar.properties.generalCategory
        return category == .control || isBidirectionalControl(scalar) || (formatCharacters && category == .format) || extra.contains(scalar)
    }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case _ where !needsEscape(scalar): escaped.unicodeScalars.append(scalar)
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        case _ where extra.contains(scalar): escaped += "\\" + String(scalar)
        default: escaped += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return escaped
}

/// Whether `scalar` changes the direction of the text around it: U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069.
private func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}
