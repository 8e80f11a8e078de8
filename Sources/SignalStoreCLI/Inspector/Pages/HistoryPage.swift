#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/history/TABLE/ROWID`, a row's page: the row as it is now (its foreign-key values linking
/// to the rows they refer to), the rows of other tables that refer to it, and every entry the
/// feed keeps for it, oldest first, from every writer; with `--allow-writes`, each entry links
/// to its revert preview.
enum HistoryPage {
    static func response(_ inspector: Inspector, table name: String, rowID text: String) -> Response {
        do {
            let schema = try SchemaReader.table(name, in: inspector.store)
            guard let rowID = Int64(text) else {
                return Page.error(inspector, .badRequest, "\(text) is not a rowid; open a row's history from its table or from the change feed")
            }
            let entries = try CLIFailure.run { try inspector.store.history(table: schema.name, rowID: rowID) }
            let (current, values) = try currentRow(schema, rowID, inspector.store)
            let children = try referringRows(schema, values, inspector.store)
            let rows = entries.map { FeedEntry(change: $0, columnOrder: schema.columnNames).row(writes: inspector.allowsWrites) }
            let events = "/events" + QueryString([("table", schema.name)]).encoded
            return Page.response("\(schema.name) \(rowID) history", inspector, events: events, refresh: true, table: schema.name, """
                <h1><a href="/tables/\(PathSegment.encode(schema.name))">\(schema.name)</a> row \(rowID)</h1>
                <div id="current" class="live-part">\(current)</div>
                \(children)
                <h2>Entries, oldest first</h2>
                <table class="feed"><thead>\(FeedEntry.headerRow)</thead>
                <tbody id="history-rows" class="live-part">\(rows)\(entries.isEmpty ? "<tr><td colspan=\"7\" class=\"none\">(no entries kept for this row; pruned entries are gone)</td></tr>" as HTML : "")</tbody></table>
                """)
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
    }

    /// The row's values now (whole, by column name, to find the rows that refer to it), and
    /// their markup; a note when the row is gone.
    private static func currentRow(_ schema: TableSchema, _ rowID: Int64, _ store: Store) throws(CLIError) -> (HTML, [String: SQLiteValue]) {
        guard !schema.isWithoutRowID else { return ("", [:]) }
        let cells = SQL(joining: schema.columns.map { CellValue.selectExpression($0.name) }, separator: ", ")
        let values = try store.readForCLI { connection in
            try connection.rows(RowSQL.read(cells, from: schema.name, at: .rowID(rowID))).first
        }
        let rules = try SchemaReader.rules(schema.name, in: store)
        guard let values else { return ("<p class=\"none\">The row is not in the table now.</p>", [:]) }
        let links = ForeignKeyLinks(rules)
        let headers = schema.columns.map { column -> HTML in "<th>\(column.name)</th>" }
        let row = zip(schema.columns, values).map { column, value in
            CellValue.cell(
                value, link: links.parentPath(column: column.name, value: value),
                expand: ValuePage.path(table: schema.name, rowID: rowID, column: column.name))
        }
        let named = Dictionary(zip(schema.columns.map { $0.name.lowercased() }, values), uniquingKeysWith: { first, _ in first })
        return ("<table class=\"rows\"><thead><tr>\(headers)</tr></thead><tbody><tr>\(row)</tr></tbody></table>", named)
    }

    /// The rows of other tables whose foreign keys refer to this row: a count per key, linking
    /// to them; nothing when no table refers to this one.
    private static func referringRows(_ schema: TableSchema, _ values: [String: SQLiteValue], _ store: Store) throws(CLIError) -> HTML {
        let children = try ForeignKeyLinks.children(of: schema.name, in: store)
        guard !children.isEmpty else { return "" }
        var items: [HTML] = []
        for child in children {
            let referenced = (child.referenced ?? schema.keyColumn?.name ?? "").lowercased()
            // A value cut for display (over 256 characters) is not the value: such keys are not followed.
            guard let value = values[referenced], let typed = CellValue.typed(value), typed.count <= CellValue.shownLength else { continue }
            let sql: SQL = "SELECT count(*) FROM \(identifier: child.table) WHERE \(identifier: child.column) = \(value: value)"
            let count = try store.readForCLI { connection in try connection.scalar(sql)?.integerValue ?? 0 }
            let link = "/tables/" + PathSegment.encode(child.table) + QueryString([("where", child.column), ("op", "eq"), ("value", typed)]).encoded
            items.append("<li><a href=\"\(link)\">\(count.formatted()) \(count == 1 ? "row" : "rows") of \(child.table)</a> (by \(child.column))</li>")
        }
        return "<h2>Rows that refer to it</h2><ul id=\"referring-rows\" class=\"live-part\">\(items)</ul>"
    }
}
#endif
