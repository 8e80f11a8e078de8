#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/feed`: the change feed newest first, a page at a time, filtered by table and operation
/// (`table`, `op`) from an entry on (`through`). Entries written together are one line
/// (``FeedGroup``) that opens to show them; `from` with `through` lists one group's entries
/// each on its own line. At the head it streams new entries from every writer as they commit.
enum FeedPage {
    static func response(_ inspector: Inspector, query: QueryString) -> Response {
        do {
            let tables = try SchemaReader.tableNames(inspector.store)
            let table = try query["table"].map { name throws(CLIError) in try SchemaReader.table(name, in: inspector.store).name }
            let operation = query["op"].flatMap(Change.Operation.init(rawValue:))
            let head = try CLIFailure.run { try inspector.store.lastChangeSeq }
            let through = try query.number("through", in: 0...Int64.max).map { min($0, head) } ?? head
            let from = try query.number("from", in: 0...Int64.max)
            let read = try CLIFailure.run {
                try inspector.store.journalEntries(
                    through: through, limit: Inspector.feedPageSize, table: table, operation: operation, valuesCutAt: FeedEntry.readLimit)
            }
            let entries = read.filter { $0.seq >= from ?? 0 }
            let orders = try SchemaReader.columnOrders(inspector.store)
            let filters = QueryString([("table", table ?? ""), ("op", operation?.rawValue ?? "")])
            var olderThrough = entries.last.map { $0.seq - 1 }
            let rows: [HTML]
            if from != nil {
                rows = entries.map { FeedEntry(change: $0, columnOrder: orders[$0.table] ?? []).row(writes: inspector.allowsWrites) }
            } else {
                var groups = FeedGroup.grouping(entries.reversed(), columnOrders: orders, writes: inspector.allowsWrites)
                if read.count == Inspector.feedPageSize, !groups.isEmpty {
                    // The oldest group may go on before the page: count it whole, and start the
                    // older page before it.
                    let run = try CLIFailure.run {
                        try inspector.store.journalRun(
                            before: groups[0].from, closeness: FeedGroup.closeness, window: FeedGroup.longestExtension, table: table, operation: operation)
                    }
                    if let run { groups[0].extend(with: run) }
                    olderThrough = groups[0].from - 1
                }
                rows = groups.reversed().map { $0.rows(filters) }
            }
            // Live only at the head: an older page stays as it is.
            let events = through == head && from == nil ? "/events" + filters.setting("after", String(head)).encoded : nil
            var older: HTML = ""
            if read.count == Inspector.feedPageSize, entries.count == read.count, let olderThrough, olderThrough > 0 {
                let olderFilters = filters.setting("from", from.map { String($0) }).setting("through", String(olderThrough))
                older = "<a rel=\"next\" id=\"older\" href=\"/feed\(olderFilters.encoded)\">Older entries →</a>"
            }
            return Page.response("Change feed", inspector, events: events, """
                <h1>Change feed</h1>
                \(form(tables: tables, table: table, operation: operation, through: query["through"]))
                <p>Newest first, from every writer; last seq <span id="last-seq">\(head)</span>.\(events == nil ? " This page does not update; go to the newest entries to follow new ones." : " New entries appear as they commit.")\(from.map { " Entries #\($0) to #\(through), each on its own line." } ?? "")</p>
                \(Page.glossary)
                <table class="feed"><thead>\(FeedEntry.headerRow)</thead>
                <tbody id="feed-rows">\(rows)</tbody></table>
                \(entries.isEmpty ? "<p class=\"none\">(no entries)</p>" as HTML : "")
                <p class="pager"><a href="/feed\(filters.encoded)">Newest entries</a> \(older)</p>
                """)
        } catch {
            return Page.error(inspector, .badRequest, error.description)
        }
    }

    /// The filters, as a plain GET form.
    private static func form(tables: [String], table: String?, operation: Change.Operation?, through: String?) -> HTML {
        let tableOptions = tables.map { name -> HTML in "<option\(name == table ? " selected" : "")>\(name)</option>" }
        let operations = [Change.Operation.insert, .update, .delete].map { op -> HTML in
            "<option\(op == operation ? " selected" : "")>\(op.rawValue)</option>"
        }
        return """
            <form class="filter" method="get" action="/feed">
            <label>Table <select name="table"><option value="">(all)</option>\(tableOptions)</select></label>
            <label>Operation <select name="op"><option value="">(all)</option>\(operations)</select></label>
            <label>Through seq <input name="through" inputmode="numeric" size="8" value="\(through ?? "")" placeholder="newest"></label>
            <button type="submit">Show</button></form>
            """
    }
}
#endif
