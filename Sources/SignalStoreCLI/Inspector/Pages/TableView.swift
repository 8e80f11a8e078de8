#if SIGNALSTORE_INSPECTOR
import SignalStore

extension TablePage {
    /// The markup of a table page: its filter form, its rows and its pager, each keeping the
    /// URL's other parameters.
    struct View {
        let table: TableQuery
        let query: QueryString
        let links: ForeignKeyLinks
        /// The columns shown as dates.
        let dates: Set<String>

        private var base: String { "/tables/" + PathSegment.encode(table.table.name) }

        /// The query without its paging.
        private var unpaged: QueryString {
            ["after", "before", "key", "offset", "n"].reduce(query) { $0.setting($1, nil) }
        }

        /// The query without its paging and its conditions.
        private var unfiltered: QueryString {
            (0..<TableQuery.maximumFilters).map(TableQuery.filterParameters).reduce(unpaged) { query, names in
                query.setting(names.column, nil).setting(names.comparison, nil).setting(names.value, nil)
            }
        }

        /// The filter form: a plain GET form, so it works without JavaScript. It shows each
        /// condition set and one empty one to add; all must hold.
        func filterForm() -> HTML {
            var rows: [HTML] = []
            for index in 0..<min(table.filters.count + 1, TableQuery.maximumFilters) {
                rows.append(condition(index, table.filters.indices.contains(index) ? table.filters[index] : nil))
            }
            let kept = ["sort", "desc", "dates"].compactMap { name -> HTML? in
                query[name].map { "<input type=\"hidden\" name=\"\(name)\" value=\"\($0)\">" }
            }
            return """
                <form class="filter" id="filters" method="get" action="\(base)">\(kept)\(rows)
                <button type="submit">Filter</button>\(table.filters.isEmpty ? "" : " <a href=\"\(base)\(unfiltered.encoded)\" id=\"clear-filters\">clear</a>" as HTML)</form>
                """
        }

        private func condition(_ index: Int, _ filter: TableQuery.Filter?) -> HTML {
            let names = TableQuery.filterParameters(index)
            let columns = table.table.columns.map { column -> HTML in
                "<option\(column.name == filter?.column.name ? " selected" : "")>\(column.name)</option>"
            }
            let comparisons = TableQuery.Comparison.allCases.map { comparison -> HTML in
                "<option value=\"\(comparison.rawValue)\"\(comparison == filter?.comparison ? " selected" : "")>\(comparison.label)</option>"
            }
            return """
                <span class="condition"><label>\(index == 0 ? "Where" : "and") <select name="\(names.column)"><option value="">(no filter)</option>\(columns)</select></label>
                <select name="\(names.comparison)" aria-label="comparison">\(comparisons)</select>
                <input name="\(names.value)" aria-label="value" value="\(filter?.typed ?? "")" placeholder="value as `set` takes it"></span>
                """
        }

        /// The rows, under headers that sort by their column (a second click reverses); a
        /// number column offers to show its values as dates, or as numbers again.
        func rowsTable(_ rows: [TableQuery.Row]) -> HTML {
            let headers = table.table.columns.map { column -> HTML in
                let sorted = table.sortColumn?.name == column.name
                let link = base + unpaged.setting("sort", column.name).setting("desc", sorted && !table.descending ? "1" : nil).encoded
                let arrow = sorted ? (table.descending ? " ▼" : " ▲") : ""
                var toggle: HTML = ""
                // Keys and references are never times: no toggle there.
                if [.integer, .real, .numeric].contains(column.affinity), column.primaryKeyPosition == 0, !links.refers(column.name) {
                    let shown = dates.contains(column.name)
                    let href = base + query.setting("dates", EpochDate.toggling(column.name, in: dates)).encoded
                    toggle = " <a class=\"dates\" href=\"\(href)\" title=\"\(shown ? "show the numbers" : "show seconds or milliseconds since 1970 as dates")\">\(shown ? "as numbers" : "as dates")</a>"
                }
                return "<th><a href=\"\(link)\">\(column.name)\(arrow)</a> <small>\(column.declaredType)</small>\(toggle)</th>"
            }
            let body = rows.map { row -> HTML in
                let cells = zip(table.table.columns, row.values).map { column, value in
                    CellValue.cell(
                        value, link: links.parentPath(column: column.name, value: value), asDate: dates.contains(column.name),
                        expand: row.rowID.map { ValuePage.path(table: table.table.name, rowID: $0, column: column.name) })
                }
                let history: HTML = row.rowID.map { "<a href=\"/history/\(PathSegment.encode(table.table.name))/\($0)\">row</a>" } ?? ""
                return "<tr>\(cells)<td class=\"actions\">\(history)</td></tr>"
            }
            let empty: HTML = rows.isEmpty ? "<tr><td class=\"none\" colspan=\"\(table.table.columns.count + 1)\">(no rows)</td></tr>" : ""
            return """
                <table class="rows"><thead><tr>\(headers)<th></th></tr></thead>
                <tbody id="rows" class="live-part">\(body)\(empty)</tbody></table>
                """
        }

        /// Links to the first, previous and next pages.
        func pager(_ page: RowsPage) -> HTML {
            // On the first page, a link to it would lead nowhere.
            var links: [HTML] = page.hasPrevious ? ["<a id=\"first-page\" href=\"\(base + unpaged.encoded)\">First page</a>"] : []
            if page.hasPrevious, let first = page.rows.first {
                let position = max(1, page.position - Inspector.pageSize)
                let previous = table.isKeyed
                    ? unpaged.setting("before", first.cursor.parameters.after).setting("key", first.cursor.parameters.key).setting("n", String(position))
                    : unpaged.setting("offset", String(position - 1)).setting("n", String(position))
                links.append("<a rel=\"prev\" id=\"previous-page\" href=\"\(base + (position == 1 && table.isKeyed ? unpaged : previous).encoded)\">← Previous page</a>")
            }
            if page.hasNext, let last = page.rows.last {
                let position = page.position + page.rows.count
                let next = table.isKeyed
                    ? unpaged.setting("after", last.cursor.parameters.after).setting("key", last.cursor.parameters.key)
                    : unpaged.setting("offset", String(position - 1))
                links.append("<a rel=\"next\" id=\"next-page\" href=\"\(base + next.setting("n", String(position)).encoded)\">Next page →</a>")
            }
            return "<p class=\"pager\">\(links)</p>"
        }

        /// The export of what the filters keep, in the page's order.
        func exportPath(_ format: String) -> String {
            base + "/export" + unpaged.setting("dates", nil).setting("format", format).encoded
        }
    }
}
#endif
