#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/tables/NAME`: a page of a table's rows, sorted and filtered by the URL's parameters, with
/// links to the previous and next pages, the table's schema, and CSV and JSON exports of what
/// the filters keep; it reloads its rows when the table changes.
///
/// Foreign-key values link to the rows they refer to; numbers that hold times show as dates
/// (``EpochDate``). Paging is by key in both directions; `n` carries the position of a page's
/// first row, so the summary can say "rows 51–100 of 52,512".
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
            let request = try PageRequest(query)
            let (page, count, rules, indexes) = try inspector.store.readForCLI { connection in
                (
                    try request.read(tableQuery, connection), try tableQuery.count(connection),
                    try inspector.store.schema.rules(schema.name, connection), try TableRules.indexDefinitions(of: schema.name, connection)
                )
            }
            let view = View(table: tableQuery, query: query, links: ForeignKeyLinks(rules), dates: EpochDate.columns(of: schema, query))
            let events = "/events" + QueryString([("table", schema.name)]).encoded
            return Page.response(schema.name, inspector, events: events, refresh: true, table: schema.name, """
                <h1>\(schema.name)</h1>
                \(schema.isWithoutRowID ? withoutRowIDNote : "")
                \(SchemaView.details(schema, rules, indexes: indexes))
                \(view.filterForm())
                <p id="summary" class="live-part">\(summary(count: count, first: page.position, shown: page.rows.count, filtered: !tableQuery.filters.isEmpty))</p>
                \(view.rowsTable(page.rows))
                \(view.pager(page))
                <p class="export">Export what the filters keep: <a id="export-csv" href="\(view.exportPath("csv"))">CSV</a> · <a id="export-json" href="\(view.exportPath("json"))">JSON</a></p>
                """)
        } catch {
            return Page.error(inspector, .badRequest, CLIFailure.convert(error).description)
        }
    }

    /// `rows 51–100 of 52,512`, `3 rows match`, `no rows`.
    static func summary(count: Int64, first: Int, shown: Int, filtered: Bool) -> String {
        let total = "\(count.formatted()) \(count == 1 ? "row" : "rows")\(filtered ? (count == 1 ? " matches" : " match") : "")"
        guard shown > 0, Int64(shown) < count || first > 1 else { return count == 0 ? (filtered ? "no rows match" : "no rows") : total }
        return "rows \(first.formatted())–\((first + shown - 1).formatted()) of \(count.formatted())\(filtered ? " matching" : "")"
    }

    /// What a `WITHOUT ROWID` table's page says: the change feed captures only rowid tables, so
    /// this page shows the rows as they are and nothing of their changes.
    private static let withoutRowIDNote: HTML = """
        <p class="note" id="without-rowid">This table is WITHOUT ROWID: the change feed does not capture its changes, so the page does not update live and its rows have no history.</p>
        """
}

extension TablePage {
    /// Which page the URL asks for: after a row (`after`, `key`), before one (`before`, `key`),
    /// or by offset for a table without a single key; `n` is its first row's position.
    struct PageRequest {
        let after: TableQuery.Cursor?
        let before: TableQuery.Cursor?
        let offset: Int
        let position: Int

        /// The largest `offset` and `n` a URL may give: far more rows than a SQLite file can
        /// hold, and small enough that the page's arithmetic on them cannot overflow.
        static let largestPosition: Int64 = 1_000_000_000_000_000

        /// - Throws: ``CLIError`` when `offset` or `n` is not a whole number in range.
        init(_ query: QueryString) throws(CLIError) {
            after = TableQuery.Cursor(after: query["after"], key: query["key"])
            before = after == nil ? TableQuery.Cursor(after: query["before"], key: query["key"]) : nil
            offset = Int(try query.number("offset", in: 0...Self.largestPosition) ?? 0)
            position = Int(try query.number("n", in: 1...Self.largestPosition) ?? Int64(offset) + 1)
        }

        /// The page's rows, where it starts, and whether rows come before and after it.
        func read(_ tableQuery: TableQuery, _ connection: Connection) throws -> RowsPage {
            if let before, tableQuery.isKeyed {
                let page = try tableQuery.page(before: before, limit: Inspector.pageSize, connection)
                // Fewer rows than asked before the cursor: this is the first page after all.
                return RowsPage(rows: page.rows, position: page.more ? max(2, position) : 1, hasPrevious: page.more, hasNext: true)
            }
            let page = try tableQuery.page(after: after, offset: offset, limit: Inspector.pageSize, connection)
            return RowsPage(rows: page.rows, position: position, hasPrevious: after != nil || offset > 0, hasNext: page.more)
        }
    }

    /// A page as read.
    struct RowsPage {
        let rows: [TableQuery.Row]
        let position: Int
        let hasPrevious: Bool
        let hasNext: Bool
    }
}
#endif
