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
            return rowText(ChangeJSON.ordered(change.row ?? [:], columnOrder))
        }
    }

    /// One JSON object per entry, in the schema of ``ChangeJSON`` (shared with the test kit's
    /// fixtures and golden feeds).
    static func json(_ change: Change, columnOrder: [String]) -> JSONValue {
        ChangeJSON.encode(change, columnOrder: columnOrder)
    }

    /// `{id: 2, purchase_num: 1, status: new}`
    static func rowText(_ row: [(String, SQLiteValue)]) -> String {
        "{" + row.map { "\($0.0): \(ValueFormat.human($0.1))" }.joined(separator: ", ") + "}"
    }
}
