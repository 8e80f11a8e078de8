/// `text` as it appears in a message: quoted, on one line, control characters escaped, and
/// shortened when long, so hostile input cannot break or flood the error line.
func display(_ text: String, limit: Int = 80) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        case "'": escaped += "\\'"
        case "\\": escaped += "\\\\"
        default:
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
    }
    if escaped.count > limit { escaped = String(escaped.prefix(limit)) + "…" }
    return "'\(escaped)'"
}
