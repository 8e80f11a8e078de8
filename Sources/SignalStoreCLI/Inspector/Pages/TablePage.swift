#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/tables/NAME`: a page of a table's rows, sorted and filtered by the URL's parameters, with
/// a link to the next page; it reloads its rows when the table changes.
enum TablePage {
    static func response(_ inspector: Inspector, table name: String, query: QueryString) -> Response {
        let schema: TableSchema
        do {
            schema = try SchemaReader.table(name, in: inspector.store)
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
        do {
            let tableQuery = try TableQuery(table: schema, query: query)
            let cursor = TableQuery.Cursor(after: query["after"], key: query["key"])
            let offset = max(0, Int(query["offset"] ?? "") ?? 0)
            let (page, count) = try inspector.store.readForCLI { connection in
                (try tableQuery.page(after: cursor, offset: offset, limit: Inspector.pageSize, connection), try tableQuery.count(connection))
            }
            let events = "/events" + QueryString([("table", schema.name)]).encoded
            return Page.response(schema.name, inspector, events: events, refresh: true, """
                <h1>\(schema.name)</h1>
                \(schema.isWithoutRowID ? withoutRowIDNote : "")
                \(filterForm(tableQuery, query))
                <p id="summary" class="live-part">\(count) \(count == 1 ? "row" : "rows")\(tableQuery.filter == nil ? "" : " match")\(cursor != nil || offset > 0 ? " · not the first page" : "")</p>
                \(rowsTable(tableQuery, page.rows, query, writes: inspector.allowsWrites))
                \(pager(tableQuery, page, query, offset: offset))
                """)
        } catch {
            return Page.error(inspector, .badRequest, CLIFailure.convert(error).description)
        }
    }

    /// The filter form: a plain GET form, so it works without JavaScript.
    private static func filterForm(_ tableQuery: TableQuery, _ query: QueryString) -> HTML {
        let columns = tableQuery.table.columns.map { column -> HTML in
            "<option\(column.name == tableQuery.filter?.column.name ? " selected" : "")>\(column.name)</option>"
        }
        let comparisons = TableQuery.Comparison.allCases.map { comparison -> HTML in
            "<option value=\"\(comparison.rawValue)\"\(comparison == tableQuery.filter?.comparison ? " selected" : "")>\(comparison.label)</option>"
        }
        let kept = ["sort", "desc"].compactMap { name -> HTML? in
            query[name].map { "<input type=\"hidden\" name=\"\(name)\" value=\"\($0)\">" }
        }
        return """
            <form class="filter" method="get" action="/tables/\(QueryString.escape(tableQuery.table.name))">
            \(kept)<label>Where <select name="where"><option value="">(no filter)</option>\(columns)</select></label>
            <select name="op" aria-label="comparison">\(comparisons)</select>
            <input name="value" aria-label="value" value="\(query["value"] ?? "")" placeholder="value as `set` takes it">
            <button type="submit">Filter</button></form>
            """
    }

    /// The rows, under headers that sort by their column (a second click reverses).
    private static func rowsTable(_ tableQuery: TableQuery, _ rows: [TableQuery.Row], _ query: QueryString, writes: Bool) -> HTML {
        let base = "/tables/" + QueryString.escape(tableQuery.table.name)
        let unpaged = query.setting("after", nil).setting("key", nil).setting("offset", nil)
        let headers = tableQuery.table.columns.map { column -> HTML in
            let sorted = tableQuery.sortColumn?.name == column.name
            let link = base + unpaged.setting("sort", column.name).setting("desc", sorted && !tableQuery.descending ? "1" : nil).encoded
            let arrow = sorted ? (tableQuery.descending ? " ▼" : " ▲") : ""
            return "<th><a href=\"\(link)\">\(column.name)\(arrow)</a> <small>\(column.declaredType)</small></th>"
        }
        let body = rows.map { row -> HTML in
            let history: HTML = row.rowID.map { "<a href=\"/history/\(QueryString.escape(tableQuery.table.name))/\($0)\">history</a>" } ?? ""
            return "<tr>\(row.values.map(CellValue.cell))<td class=\"actions\">\(history)</td></tr>"
        }
        let empty: HTML = rows.isEmpty ? "<tr><td class=\"none\" colspan=\"\(tableQuery.table.columns.count + 1)\">(no rows)</td></tr>" : ""
        return """
            <table class="rows"><thead><tr>\(headers)<th></th></tr></thead>
            <tbody id="rows" class="live-part">\(body)\(empty)</tbody></table>
            """
    }

    /// What a `WITHOUT ROWID` table's page says: the change feed captures only rowid tables, so
    /// this page shows the rows as they are and nothing of their changes.
    private static let withoutRowIDNote: HTML = """
        <p class="note" id="without-rowid">This table is WITHOUT ROWID: the change feed does not capture its changes, so the page does not update live and its rows have no history.</p>
        """

    /// Links to the first page and the next one.
    private static func pager(_ tableQuery: TableQuery, _ page: (rows: [TableQuery.Row], more: Bool), _ query: QueryString, offset: Int) -> HTML {
        let base = "/tables/" + QueryString.escape(tableQuery.table.name)
        let first = query.setting("after", nil).setting("key", nil).setting("offset", nil)
        var links: [HTML] = ["<a href=\"\(base + first.encoded)\">First page</a>"]
        if page.more, let last = page.rows.last {
            let next = tableQuery.isKeyed
                ? first.setting("after", last.cursor.parameters.after).setting("key", last.cursor.parameters.key)
                : first.setting("offset", String(offset + page.rows.count))
            links.append("<a rel=\"next\" id=\"next-page\" href=\"\(base + next.encoded)\">Next page →</a>")
        }
        return "<p class=\"pager\">\(links)</p>"
    }
}
#endif
