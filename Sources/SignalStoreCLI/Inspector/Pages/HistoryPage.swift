#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/history/TABLE/ROWID`: the row as it is now and every entry the feed keeps for it, oldest
/// first, from every writer; with `--allow-writes`, each entry links to its revert preview.
enum HistoryPage {
    static func response(_ inspector: Inspector, table name: String, rowID text: String) -> Response {
        do {
            let schema = try SchemaReader.table(name, in: inspector.store)
            guard let rowID = Int64(text) else {
                return Page.error(inspector, .badRequest, "\(text) is not a rowid; open a row's history from its table or from the change feed")
            }
            let entries = try CLIFailure.run { try inspector.store.history(table: schema.name, rowID: rowID) }
            let current = try currentRow(schema, rowID, inspector.store)
            let rows = entries.map { FeedEntry(change: $0, columnOrder: schema.columnNames).row(writes: inspector.allowsWrites) }
            let events = "/events" + QueryString([("table", schema.name)]).encoded
            return Page.response("\(schema.name) \(rowID) history", inspector, events: events, refresh: true, """
                <h1>History of <a href="/tables/\(QueryString.escape(schema.name))">\(schema.name)</a> row \(rowID)</h1>
                <div id="current" class="live-part">\(current)</div>
                <h2>Entries, oldest first</h2>
                <table class="feed"><thead>\(FeedEntry.headerRow)</thead>
                <tbody id="history-rows" class="live-part">\(rows)\(entries.isEmpty ? "<tr><td colspan=\"7\" class=\"none\">(no entries kept for this row; pruned entries are gone)</td></tr>" as HTML : "")</tbody></table>
                """)
        } catch {
            return Page.error(inspector, .notFound, error.description)
        }
    }

    /// The row's values now, or a note that it is gone.
    private static func currentRow(_ schema: TableSchema, _ rowID: Int64, _ store: Store) throws(CLIError) -> HTML {
        guard !schema.isWithoutRowID else { return "" }
        let cells = schema.columns.map { CellValue.selectExpression($0.name) }.joined(separator: ", ")
        let values = try store.readForCLI { connection in
            try connection.statement("SELECT \(cells) FROM \(quotedIdentifier(schema.name)) WHERE rowid = ?").rows([.integer(rowID)]).first
        }
        guard let values else { return "<p class=\"none\">The row is not in the table now.</p>" }
        let headers = schema.columns.map { column -> HTML in "<th>\(column.name)</th>" }
        return "<table class=\"rows\"><thead><tr>\(headers)</tr></thead><tbody><tr>\(values.map(CellValue.cell))</tr></tbody></table>"
    }
}
#endif
