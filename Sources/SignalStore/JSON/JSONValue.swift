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
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    // Written as UTF-8 bytes: appending to a byte array costs a fraction of appending to a
    // String, and sync journals a row this way per applied insert.
    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .number(let value): Self.write(number: value, to: &output)
        case .string(let value): JSONString.append(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONString.append(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func write(number value: Double, to output: inout [UInt8]) {
        // Reals always show a fraction or exponent, so readers keep them apart from integers.
        let text = value.description.utf8
        output.append(contentsOf: text)
        if !text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) { output.append(contentsOf: ".0".utf8) }
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

    /// `JSONValue(row: row).rendered`, written without building the document first: what
    /// journaling a row and exporting a table do per row.
    package static func rendered(row: [(String, SQLiteValue)]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        output.append(UInt8(ascii: "{"))
        var index = 0   // not `enumerated()`, a generic call per column in a debug build
        while index < row.count {
            let (column, value) = row[index]
            if index > 0 { output.append(UInt8(ascii: ",")) }
            index += 1
            JSONString.append(column, to: &output)
            output.append(UInt8(ascii: ":"))
            switch value {
            case .null: output.append(contentsOf: "null".utf8)
            case .integer(let value): output.append(contentsOf: String(value).utf8)
            case .real(let value) where value.isFinite: write(number: value, to: &output)
            case .text(let text): JSONString.append(text, to: &output)
            case .real, .blob: JSONValue(value).write(to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
        return String(decoding: output, as: UTF8.self)
    }
}
