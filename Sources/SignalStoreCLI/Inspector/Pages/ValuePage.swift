#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/value/TABLE/ROWID/COLUMN`: one value whole, where a cell cut it (``CellValue/shownLength``).
/// One value at a time, so a page holds one big value at most.
enum ValuePage {
    /// The page of `column` of the row `rowID` of `table`.
    static func path(table: String, rowID: Int64, column: String) -> String {
        "/value/\(PathSegment.encode(table))/\(rowID)/\(PathSegment.encode(column))"
    }

    static func response(_ inspector: Inspector, table name: String, rowID text: String, column columnName: String) -> Response {
        do {
            let schema = try SchemaReader.table(name, in: inspector.store)
            let column = try schema.column(columnName)
            guard let rowID = Int64(text), !schema.isWithoutRowID else {
                return Page.error(inspector, .badRequest, "\(text) is not a rowid of \(schema.name); open a value from its table")
            }
            let sql = RowSQL.read([column.name], from: schema.name, at: .rowID(rowID))
            guard let value = try inspector.store.readForCLI({ connection in try connection.rows(sql).first?.first }) else {
                return Page.error(inspector, .notFound, "\(schema.name) has no row \(rowID) now (deleted meanwhile?)")
            }
            let whole: String = switch value {
            case .text(let text): escapingControls(in: text, keepingLineBreaks: true)
            case .blob: ValueFormat.human(value)
            default: CellValue.typed(value) ?? "NULL"
            }
            return Page.response("\(schema.name) \(rowID) \(column.name)", inspector, table: schema.name, """
                <h1><a href="/history/\(PathSegment.encode(schema.name))/\(rowID)">\(schema.name) row \(rowID)</a>: \(column.name)</h1>
                <p class="whole" id="whole-value">\(whole)</p>
                """)
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
    }
}
#endif
