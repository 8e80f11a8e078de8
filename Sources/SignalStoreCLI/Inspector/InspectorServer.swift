#if SIGNALSTORE_INSPECTOR
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Signals

/// The inspector's HTTP server: its routes, behind ``InspectorGuard``.
enum InspectorServer {
    /// The largest form body read (a revert confirmation is a few dozen bytes).
    static let maximumFormSize = 16 * 1024
    /// How long a connection may stay silent before a request, or between requests, before the
    /// server closes it: idle connections would otherwise hold the server's sockets for ever.
    static let idleTimeout: Duration = .seconds(10)

    /// The application that serves `inspector` on `host`:`port` (0: any free port). `onBound`
    /// gets the port once the server listens.
    static func application(
        _ inspector: Inspector, host: String, port: Int, onBound: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let boundPort = Locked(port)
        let router = Router()
        router.middlewares.add(InspectorGuard(token: inspector.token, port: boundPort, loopbackOnly: isLoopback(host)))
        router.get("/") { request, _ in
            await inspector.pages.page(at: request.uri.description, of: inspector) { OverviewPage.response(inspector) }
        }
        router.get("/tables/:table") { request, context in
            let table = pathSegment("table", context), query = QueryString(parsing: request.uri.query)
            return await inspector.pages.page(at: request.uri.description, of: inspector) { TablePage.response(inspector, table: table, query: query) }
        }
        router.get("/tables/:table/export") { request, context in
            TableExport.response(inspector, table: pathSegment("table", context), query: QueryString(parsing: request.uri.query))
        }
        router.get("/find/:table") { request, context in
            FindRow.response(inspector, table: pathSegment("table", context), query: QueryString(parsing: request.uri.query))
        }
        router.get("/value/:table/:rowid/:column") { _, context in
            ValuePage.response(inspector, table: pathSegment("table", context), rowID: pathSegment("rowid", context), column: pathSegment("column", context))
        }
        router.get("/feed") { request, _ in FeedPage.response(inspector, query: QueryString(parsing: request.uri.query)) }
        router.get("/events") { request, _ in
            FeedEvents.response(inspector, query: QueryString(parsing: request.uri.query), lastEventID: request.headers[lastEventID])
        }
        router.get("/history/:table/:rowid") { request, context in
            let table = pathSegment("table", context), rowID = pathSegment("rowid", context)
            return await inspector.pages.page(at: request.uri.description, of: inspector) { HistoryPage.response(inspector, table: table, rowID: rowID) }
        }
        router.get("/entry/:seq") { _, context in EntryPage.response(inspector, seq: pathSegment("seq", context)) }
        router.get("/static/:name") { _, context in InspectorAssets.response(context.parameters.get("name") ?? "") }
        #if SIGNALSTORE_SYNC
        router.get("/conflicts") { _, _ in InboxPage.response(inspector) }
        if inspector.allowsWrites {
            router.post("/conflicts/resolve") { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: maximumFormSize)
                return InboxPage.resolve(inspector, form: QueryString(parsing: String(buffer: body)))
            }
        }
        #endif
        if inspector.allowsWrites {
            router.get("/revert") { request, _ in RevertPage.preview(inspector, query: QueryString(parsing: request.uri.query)) }
            router.post("/revert") { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: maximumFormSize)
                return RevertPage.perform(inspector, form: QueryString(parsing: String(buffer: body)))
            }
        } else {
            router.get("/revert") { _, _ in
                Page.error(inspector, .notFound, "this inspector is read-only: start it with `signalstore inspect --allow-writes` to revert")
            }
        }
        var logger = Logger(label: "signalstore.inspect")
        logger.logLevel = .critical
        return Application(
            router: router,
            // A connection that sends nothing for this long, before or between requests, is
            // closed, with or without the token; a live page's stream is a request in progress
            // and stays open.
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(idleTimeout.components.seconds)))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? port
                boundPort.withLock { $0 = port }
                onBound(port)
            },
            logger: logger
        )
    }

    /// A path parameter as the page's link meant it: the router hands segments on as they came,
    /// still percent-encoded (`caf%C3%A9`, `sl%2Fash`); ``PathSegment`` decodes them.
    static func pathSegment(_ name: String, _ context: some RequestContext) -> String {
        PathSegment.decode(context.parameters.get(name) ?? "")
    }

    /// Whether `host` is a loopback address, where the `Host` header is checked.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1"].contains(host.lowercased())
    }

    private static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
#endif
