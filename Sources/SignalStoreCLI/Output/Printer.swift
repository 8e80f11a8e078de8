import Foundation
import SignalStore

/// Prints a command's results as human text or JSON, to the current context's console.
struct Printer {
    let json: Bool
    let console: Console

    init(json: Bool) {
        self.json = json
        console = CommandContext.current.console
    }

    func line(_ text: String) {
        console.print(text)
    }

    func table(_ table: TextTable) {
        table.lines.forEach(console.print)
    }

    /// Key/value lines, keys padded to one width.
    func fields(_ fields: [(String, String)]) {
        let width = fields.map(\.0.count).max() ?? 0
        for (key, value) in fields {
            console.print(key + String(repeating: " ", count: width - key.count) + "  " + value)
        }
    }

    func document(_ value: JSONValue) {
        console.print(value.rendered)
    }
}

/// How change-feed entries are printed by `watch` and `changes`.
enum ChangeFormat {
    /// `#12  orders  1  update  purchase_num: 3 → 4`
    static func human(_ change: Change, columnOrder: [String]) -> String {
        "#\(change.seq)  \(change.table)  \(change.rowID)  \(change.operation.rawValue)  \(detail(change, columnOrder: columnOrder))"
    }

    /// `purchase_num: 3 → 4` for updates, the row for inserts and deletes.
    static func detail(_ change: Change, columnOrder: [String]) -> String {
        switch change.operation {
        case .update:
            return "\(change.column ?? "?"): \(ValueFormat.human(change.oldValue ?? .null)) → \(ValueFormat.human(change.newValue ?? .null))"
        case .insert, .delete:
            return rowText(ordered(change.row ?? [:], columnOrder))
        }
    }

    /// One JSON object per entry; inserts and deletes carry the row as an object.
    static func json(_ change: Change, columnOrder: [String]) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string("change")), ("seq", .integer(change.seq)), ("table", .string(change.table)),
            ("id", .integer(change.rowID)), ("operation", .string(change.operation.rawValue)),
        ]
        switch change.operation {
        case .update:
            members += [
                ("column", .string(change.column ?? "")),
                ("old", ValueFormat.json(change.oldValue ?? .null)),
                ("new", ValueFormat.json(change.newValue ?? .null)),
            ]
        case .insert, .delete:
            members.append(("row", ValueFormat.json(row: ordered(change.row ?? [:], columnOrder))))
        }
        members.append(("timestamp", .string(change.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))))
        return .object(members)
    }

    /// `{id: 2, purchase_num: 1, status: new}`
    static func rowText(_ row: [(String, SQLiteValue)]) -> String {
        "{" + row.map { "\($0.0): \(ValueFormat.human($0.1))" }.joined(separator: ", ") + "}"
    }

    /// The row's columns in schema order; columns the schema does not know (dropped since) last,
    /// by name.
    static func ordered(_ row: [String: SQLiteValue], _ columnOrder: [String]) -> [(String, SQLiteValue)] {
        let known = columnOrder.compactMap { name in row[name].map { (name, $0) } }
        let unknown = row.filter { !columnOrder.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return known + unknown
    }
}
