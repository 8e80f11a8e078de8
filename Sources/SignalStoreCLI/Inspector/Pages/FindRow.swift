#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/find/TABLE?column=C&value=V`: the page of the row whose `C` is `V` (its primary key when
/// `column` is empty), the target of a foreign-key link. A value that names no row is a
/// dangling reference, and the page says so.
enum FindRow {
    static func response(_ inspector: Inspector, table name: String, query: QueryString) -> Response {
        do {
            let schema = try SchemaReader.table(name, in: inspector.store)
            guard let columnName = query["column"] ?? schema.keyColumn?.name else {
                return Page.error(inspector, .badRequest, "\(schema.name) has no single key to find a row by; open the table and filter it")
            }
            let column = try schema.column(columnName)
            let value = try ValueParser.parse(query["value"] ?? "", for: column, in: schema.name)
            let filter = QueryString([("where", column.name), ("op", "eq"), ("value", query["value"] ?? "")])
            if schema.isWithoutRowID {
                return redirect("/tables/" + PathSegment.encode(schema.name) + filter.encoded)
            }
            let sql: SQL = "SELECT rowid FROM \(identifier: schema.name) WHERE \(identifier: column.name) = \(value: value) LIMIT 1"
            guard let rowID = try inspector.store.readForCLI({ connection in try connection.scalar(sql) })?.integerValue else {
                return Page.error(inspector, .notFound, "\(schema.name) has no row whose \(column.name) is \(query["value"] ?? ""): the reference dangles (`PRAGMA foreign_key_check` in sqlite3 lists every such reference)")
            }
            return redirect("/history/\(PathSegment.encode(schema.name))/\(rowID)")
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
    }

    private static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
#endif
