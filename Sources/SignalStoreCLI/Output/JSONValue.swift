import SignalStore

/// A JSON document, written with keys in the order given, so output is stable.
indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The document on one line.
    var rendered: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value):
            // Reals always show a fraction or exponent, so readers keep them apart from integers.
            let text = "\(value)"
            output += text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
        case .string(let value): JSONString.append(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSONString.append(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }
}
