#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// A change-feed entry as the inspector shows it: a table row on a page, or the same fields as
/// JSON in a live event, from which the page's script builds the same row (as text).
struct FeedEntry {
    let change: Change
    /// The row's values in schema order, for an insert's or delete's detail.
    let columnOrder: [String]

    /// The longest value an entry shows in a list (characters of text, twice the bytes of a
    /// blob); the whole entry is one click away (``entryPath``).
    static let valueLimit = 256

    /// How much of each value a page of entries reads (SQLite cuts it, in Unicode code points):
    /// past ``valueLimit`` characters, so a line still knows it cut a value, with room for
    /// characters of several code points (a letter and its accents, a flag, a family emoji).
    static let readLimit = valueLimit * 8 + 1

    /// `purchase_num: 3 → 4`, or the row of an insert or delete, each value cut at
    /// ``valueLimit``.
    var detail: String {
        ChangeFormat.detail(change, columnOrder: columnOrder, valueLimit: Self.valueLimit)
    }

    /// The page of the whole entry, when ``detail`` cut a value; `nil` otherwise.
    var entryPath: String? {
        ChangeFormat.hasCutValues(change, limit: Self.valueLimit) ? "/entry/\(change.seq)" : nil
    }

    /// When it was committed, UTC, to the millisecond.
    var time: String {
        change.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true).year().month().day().time(includingFractionalSeconds: true))
    }

    /// The row's history page.
    var historyPath: String {
        "/history/\(PathSegment.encode(change.table))/\(change.rowID)"
    }

    /// The revert preview of this entry alone.
    var revertPath: String {
        "/revert" + QueryString([("from", String(change.seq)), ("to", String(change.seq))]).encoded
    }

    /// A `<tr>`: seq, time, table, row (a link to its history), operation, detail, and a
    /// revert link when writes are allowed. In a ``FeedGroup`` (`group`: its first seq) the row
    /// is hidden until the group's line is opened.
    func row(writes: Bool, group: Int64? = nil) -> HTML {
        let revert: HTML = writes ? "<a class=\"revert\" href=\"\(revertPath)\">revert…</a>" : ""
        let member: HTML = group.map { " class=\"member\" data-group=\"\($0)\" hidden" } ?? ""
        return """
            <tr data-seq="\(change.seq)"\(member)><td class="num">#\(change.seq)</td><td class="time">\(time)</td><td>\(change.table)</td>\
            <td><a class="history" href="\(historyPath)">\(change.rowID)</a></td><td class="op \(change.operation.rawValue)">\(change.operation.rawValue)</td>\
            <td class="detail">\(detail)\(entryPath.map { " <a class=\"expand\" href=\"\($0)\">whole entry</a>" as HTML } ?? "")</td><td class="actions">\(revert)</td></tr>
            """
    }

    /// The fields of ``row(writes:)`` for a live event.
    func json(writes: Bool) -> JSONValue {
        .object([
            ("seq", .integer(change.seq)), ("time", .string(time)), ("table", .string(change.table)),
            ("rowID", .integer(change.rowID)), ("operation", .string(change.operation.rawValue)),
            ("detail", .string(detail)), ("expand", entryPath.map(JSONValue.string) ?? .null), ("history", .string(historyPath)),
            ("revert", writes ? .string(revertPath) : .null),
        ])
    }

    /// The header of a table of ``row(writes:)`` rows.
    static let headerRow: HTML = "<tr><th>seq</th><th>time (UTC)</th><th>table</th><th>row</th><th>op</th><th>change</th><th></th></tr>"
}
#endif
