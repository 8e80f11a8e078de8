#if SIGNALSTORE_INSPECTOR
import Foundation
import Hummingbird
import SignalStore

/// `/tables/NAME/export?format=csv|json`: every row the table page's filters keep, in its
/// order, values whole, as a download. Read and written a page of ``batch`` rows at a time, so
/// a table of any size streams in bounded memory.
///
/// CSV (RFC 4180): a header of column names, NULL as an empty field and empty text as `""`, a
/// blob as hex digits. Text that a spreadsheet would run as a formula (it starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return) is written with a `'` before it, as OWASP advises, so
/// that opening an export never runs what a row holds; the JSON export keeps every value as it is.
/// JSON: an array of objects in column order, with the change feed's markers for a blob
/// (`{"$blob": "0aff"}`) and an infinite real.
enum TableExport {
    /// The rows read at a time.
    static let batch = 500

    enum Format: String {
        case csv, json
    }

    static func response(_ inspector: Inspector, table name: String, query: QueryString) -> Response {
        let tableQuery: TableQuery
        do {
            tableQuery = try TableQuery(table: try SchemaReader.table(name, in: inspector.store), query: query)
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
        guard let format = Format(rawValue: query["format"] ?? "csv") else {
            return Page.error(inspector, .badRequest, "there is no export format \(query["format"] ?? ""); choose csv or json")
        }
        let store = inspector.store
        let body = ResponseBody { writer in
            var cursor: TableQuery.Cursor?
            var offset = 0, first = true
            try await writer.write(ByteBuffer(string: format == .csv ? csvLine(tableQuery.table.columnNames.map(SQLiteValue.text)) : "["))
            while true {
                let page = try store.readForCLI { connection in
                    try tableQuery.page(after: cursor, offset: offset, limit: batch, wholeValues: true, connection)
                }
                var text = ""
                for row in page.rows {
                    switch format {
                    case .csv: text += csvLine(row.values)
                    case .json:
                        text += (first ? "\n" : ",\n") + JSONValue.rendered(row: Array(zip(tableQuery.table.columnNames, row.values)))
                        first = false
                    }
                }
                try await writer.write(ByteBuffer(string: text))
                guard page.more, let last = page.rows.last else { break }
                cursor = last.cursor
                offset += page.rows.count
            }
            if format == .json { try await writer.write(ByteBuffer(string: "\n]\n")) }
            try await writer.finish(nil)
        }
        let type = format == .csv ? "text/csv; charset=utf-8" : "application/json"
        return Response(status: .ok, headers: [.contentType: type, .contentDisposition: "attachment; filename=\"\(fileName(tableQuery.table.name)).\(format.rawValue)\""], body: body)
    }

    /// One CSV record: fields quoted when they hold a comma, a quote or a line break, or are
    /// empty text (NULL is the field with nothing at all).
    static func csvLine(_ values: [SQLiteValue]) -> String {
        values.map { value -> String in
            let field: String
            switch value {
            case .null: return ""
            case .integer(let number): return String(number)
            case .real(let number): return "\(number)"
            case .blob(let bytes): return bytes.map { String(format: "%02x", $0) }.joined()
            case .text(let text) where text.isEmpty: return "\"\""
            case .text(let text): field = text.unicodeScalars.first.map(formulaStarts.contains) == true ? "'" + text : text
            }
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }

    /// The first characters with which a spreadsheet reads a cell as a formula.
    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// The table's name with anything but letters, digits, `-` and `_` replaced, for a file name
    /// in a header.
    private static func fileName(_ table: String) -> String {
        String(table.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") ? Character(scalar) : "_"
        })
    }
}
#endif
