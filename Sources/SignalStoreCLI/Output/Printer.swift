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
    ///
    /// With `valueLimit`, text longer than that many characters (and blobs longer than half as
    /// many bytes) is cut and ends with `…`, so a page of entries stays small whatever the
    /// values hold.
    static func detail(_ change: Change, columnOrder: [String], valueLimit: Int? = nil) -> String {
        let shown = { (value: SQLiteValue) in ValueFormat.human(cut(value, valueLimit)) + (isCut(value, valueLimit) ? "…" : "") }
        switch change.operation {
        case .update:
            return "\(change.column ?? "?"): \(shown(change.oldValue ?? .null)) → \(shown(change.newValue ?? .null))"
        case .insert, .delete:
            return "{" + ChangeJSON.ordered(change.row ?? [:], columnOrder).map { "\($0.0): \(shown($0.1))" }.joined(separator: ", ") + "}"
        }
    }

    /// Whether any value of `change` is longer than `limit` (see ``detail(_:columnOrder:valueLimit:)``).
    static func hasCutValues(_ change: Change, limit: Int) -> Bool {
        let values = change.operation == .update ? [change.oldValue, change.newValue].compactMap { $0 } : Array((change.row ?? [:]).values)
        return values.contains { isCut($0, limit) }
    }

    private static func isCut(_ value: SQLiteValue, _ limit: Int?) -> Bool {
        guard let limit else { return false }
        switch value {
        case .text(let text): return text.utf8.count > limit && text.count > limit
        case .blob(let bytes): return bytes.count > limit / 2
        default: return false
        }
    }

    private static func cut(_ value: SQLiteValue, _ limit: Int?) -> SQLiteValue {
        guard let limit, isCut(value, limit) else { return value }
        switch value {
        case .text(let text): return .text(String(text.prefix(limit)))
        case .blob(let bytes): return .blob(bytes.prefix(limit / 2))
        default: return value
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
