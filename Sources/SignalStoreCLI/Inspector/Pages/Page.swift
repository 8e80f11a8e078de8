#if SIGNALSTORE_INSPECTOR
import Hummingbird

/// The frame every inspector page shares, and the responses that carry pages.
enum Page {
    /// A whole page: the navigation, then `body`.
    /// - Parameters:
    ///   - events: The `/events` URL the page's script follows for live updates; `nil` for a
    ///     page that does not change.
    ///   - refresh: Whether the script reloads the page's `#live` parts on each new entry.
    static func response(
        _ title: String, _ inspector: Inspector, events: String? = nil, refresh: Bool = false, status: HTTPResponse.Status = .ok, _ body: HTML
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
            <nav><a href="/">Overview</a> <a href="/feed">Change feed</a></nav></header>
            <main>\(warning)\(body)</main>
            <script src="/static/inspector.js"></script>
            </body></html>
            """
        return html(status, page)
    }

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
