#if SIGNALSTORE_INSPECTOR
import Hummingbird

/// The frame every inspector page shares, and the responses that carry pages.
enum Page {
    /// A whole page: the navigation, then `body`.
    /// - Parameters:
    ///   - events: The `/events` URL the page's script follows for live updates; `nil` for a
    ///     page that does not change.
    ///   - refresh: Whether the script reloads the page's `#live` parts on each new entry.
    ///   - table: The table the page shows, marked in the list of tables beside it.
    static func response(
        _ title: String, _ inspector: Inspector, events: String? = nil, refresh: Bool = false, table: String? = nil,
        status: HTTPResponse.Status = .ok, _ body: HTML
    ) -> Response {
        let mode: HTML = inspector.allowsWrites ? "<span class=\"mode writes\">writes allowed</span>" : "<span class=\"mode\">read-only</span>"
        let gone = inspector.fileChange
        // Filled by the script: without JavaScript the page simply does not update.
        let live: HTML = events == nil || gone != nil ? "" : "<span id=\"live-status\" class=\"live\"></span>"
        let warning: HTML = gone.map { "<p class=\"error\" id=\"file-gone\">\($0)</p>" } ?? ""
        let page: HTML = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · SignalStore inspector</title>
            <link rel="stylesheet" href="/static/inspector.css"></head>
            <body\((gone == nil ? events : nil).map { " data-events=\"\($0)\"" as HTML } ?? "")\(refresh ? " data-refresh=\"1\"" as HTML : "")>
            <header><a class="brand" href="/">SignalStore inspector</a> <span class="path">\(inspector.store.path)</span> \(mode) \(live)
            <nav><a href="/">Overview</a> <a href="/feed">Change feed</a>\(inboxLink)</nav></header>
            <div class="layout">\(tableList(inspector, current: table))<main>\(warning)\(body)</main></div>
            <script src="/static/inspector.js"></script>
            </body></html>
            """
        return html(status, page)
    }

    /// The link to the conflict inbox, in a build with sync.
    #if SIGNALSTORE_SYNC
    private static let inboxLink: HTML = " <a href=\"/conflicts\">Conflict inbox</a>"
    #else
    private static let inboxLink: HTML = ""
    #endif

    /// The database's tables, beside every page; nothing when they cannot be read (the page
    /// itself says why).
    private static func tableList(_ inspector: Inspector, current: String?) -> HTML {
        guard let names = try? SchemaReader.tableNames(inspector.store), !names.isEmpty else { return "" }
        let items = names.map { name -> HTML in
            "<li><a href=\"/tables/\(PathSegment.encode(name))\"\(name == current ? " aria-current=\"page\"" as HTML : "")>\(name)</a></li>"
        }
        return "<nav class=\"tables\" id=\"table-list\" aria-label=\"tables\"><h2>Tables</h2><ul>\(items)</ul></nav>"
    }

    /// What the page's words mean, for someone new to the feed.
    static let glossary: HTML = """
        <p class="glossary" id="glossary"><b>seq</b>: an entry's number in the feed, growing with every change by any writer. \
        <b>Entries written together</b>: entries written less than 2 ms apart, shown as one line that opens; usually one transaction, but the journal keeps no commit boundaries, so a transaction that pauses longer shows as several lines. \
        <b>Consumer</b>: a named reader of the feed that acknowledges a seq; entries it has not acknowledged are kept when the feed is pruned.</p>
        """

    /// A page with one sentence on it, for refusals and errors.
    static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        html(status, """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>SignalStore inspector</title></head>
            <body><p id="message">\(message)</p></body></html>
            """)
    }

    /// An error page inside the frame: what went wrong, in one line.
    static func error(_ inspector: Inspector, _ status: HTTPResponse.Status, _ message: String) -> Response {
        response("Error", inspector, status: status, "<p class=\"error\" id=\"message\">\(message)</p>")
    }

    private static func html(_ status: HTTPResponse.Status, _ page: HTML) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page.markup))
        )
    }
}
#endif
