import Foundation

/// A JSON document, written with keys in the order given, so output is stable: the CLI's
/// `--json` output, and the change-entry schema of ``ChangeJSON``.
package indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The document on one line.
    package var rendered: String {
        var output = ""
        output.reserveCapacity(256)
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
            let text = value.description
            output += text
            if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) { output += ".0" }
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

extension JSONValue {
    /// A SQLite value: `null`, numbers, strings; a blob as `{"$blob": "0aff"}` and an infinite
    /// real as `{"$real": "Inf"}` or `"-Inf"`, the same markers as the change journal uses.
    package init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value) where value.isFinite: self = .number(value)
        case .real(let value): self = .object([("$real", .string(value < 0 ? "-Inf" : "Inf"))])
        case .text(let text): self = .string(text)
        case .blob(let data): self = .object([("$blob", .string(data.map { String(format: "%02x", $0) }.joined()))])
        }
    }

    /// A row as a JSON object, columns in the order given.
    package init(row: [(String, SQLiteValue)]) {
        self = .object(row.map { ($0.0, JSONValue($0.1)) })
    }
}
