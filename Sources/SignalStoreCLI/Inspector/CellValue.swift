#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// A value in a table cell, shown as SQLite holds it: NULL apart from the text `null`, empty
/// text apart from NULL, blobs as hex, numbers as numbers. Always text, never markup; control
/// characters (NUL included) and bidirectional controls escaped as the CLI writes them
/// (`\u{0}`, `\u{202e}`), line breaks kept; `data-type` names SQLite's storage class.
enum CellValue {
    /// The most characters (bytes of a blob) a cell shows; the cut value's "…" links to it
    /// whole (``ValuePage``).
    static let shownLength = 256

    /// The SQL that reads `column` for a cell: text and blobs cut one past ``shownLength``, so
    /// a huge value is never read whole and a cut one is known by its length.
    ///
    /// Both are cut as bytes: SQLite's `substr` makes NULL of an empty blob, and ends text at
    /// its first NUL character. Four bytes a character keep at least ``shownLength`` + 1 of
    /// them, so a cut value is still known by its length.
    static func selectExpression(_ column: String) -> SQL {
        let value: SQL = "\(identifier: column)"
        return """
            CASE typeof(\(value)) \
            WHEN 'blob' THEN CASE WHEN length(\(value)) > \(shownLength + 1) THEN substr(\(value), 1, \(shownLength + 1)) ELSE \(value) END \
            WHEN 'text' THEN CASE WHEN length(CAST(\(value) AS BLOB)) > \(4 * (shownLength + 1)) \
            THEN CAST(substr(CAST(\(value) AS BLOB), 1, \(4 * (shownLength + 1))) AS TEXT) ELSE \(value) END \
            ELSE \(value) END
            """
    }

    /// A `<td>` for `value` as read through ``selectExpression(_:)``: a link to `link` when
    /// given (a foreign key's parent row), or a date with the number on hover when `asDate`
    /// (``EpochDate``). A cut value's marker links to `expand`, the page of the whole value.
    static func cell(_ value: SQLiteValue, link: String? = nil, asDate: Bool = false, expand: String? = nil) -> HTML {
        if asDate, let date = EpochDate.text(value) {
            return "<td class=\"num date\" data-type=\"\(value.storageClass)\" title=\"\(typed(value) ?? "")\"><time>\(date)</time></td>"
        }
        if let link, let text = typed(value) {
            return "<td class=\"num\" data-type=\"\(value.storageClass)\"><a class=\"parent\" href=\"\(link)\">\(text)</a></td>"
        }
        return plainCell(value, expand: expand)
    }

    /// `value` as `set` and the table page's filter take it; `nil` for NULL and blobs.
    static func typed(_ value: SQLiteValue) -> String? {
        switch value {
        case .integer(let number): String(number)
        case .real(let number): "\(number)"
        case .text(let text): text
        case .null, .blob: nil
        }
    }

    private static func plainCell(_ value: SQLiteValue, expand: String?) -> HTML {
        let more: HTML = expand.map { "<a class=\"more\" href=\"\($0)\" title=\"the whole value\">…</a>" } ?? "<span class=\"more\">…</span>"
        switch value {
        case .null:
            return "<td class=\"null\" data-type=\"null\">NULL</td>"
        case .integer(let number):
            return "<td class=\"num\" data-type=\"integer\">\(number)</td>"
        case .real(let number):
            return "<td class=\"num\" data-type=\"real\">\("\(number)")</td>"
        case .text(let text) where text.isEmpty:
            return "<td class=\"empty\" data-type=\"text\" title=\"empty text\"></td>"
        case .text(let text):
            let cut = text.count > shownLength
            return "<td data-type=\"text\"\(cut ? " data-cut=\"1\"" as HTML : "")>\(escapingControls(in: cut ? String(text.prefix(shownLength)) : text, keepingLineBreaks: true))\(cut ? more : "")</td>"
        case .blob(let bytes):
            let cut = bytes.count > shownLength
            return "<td class=\"blob\" data-type=\"blob\">\(ValueFormat.human(.blob(bytes.prefix(shownLength))))\(cut ? more : "")</td>"
        }
    }
}
extension SQLiteValue {
    /// SQLite's name for the value's storage class (`typeof`).
    fileprivate var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}
#endif
