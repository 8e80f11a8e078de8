#if SIGNALSTORE_INSPECTOR
import HTTPTypes
import Hummingbird
import Signals

/// Lets a request in only with the inspector's token, and hardens every response.
///
/// - The token comes once in the printed URL (`?token=…`): the guard answers with a cookie
///   (HttpOnly, SameSite=Strict, named after the port, since cookies are shared by every port
///   of a host) and redirects to the same page without the token, so it does not stay in the
///   address bar, the history or a screenshot. Later requests carry the cookie. The redirect
///   stays on this server whatever the path (`//elsewhere.example/?token=…` included).
/// - A request without it gets a 403 page that says where the token is.
/// - When the server listens on loopback, a `Host` other than the loopback address and port is
///   refused: a web page elsewhere cannot reach the inspector through a DNS name it controls
///   (DNS rebinding). A request with two `Host` headers is refused.
/// - A request a browser marks as sent by another site or another port of this host
///   (`Sec-Fetch-Site` other than `same-origin` or `none`, or a form whose `Origin` names another
///   origin) is refused: the cookie's SameSite does not tell ports apart, so a page served
///   on another 127.0.0.1 port could otherwise make the browser send it along.
/// - Every response forbids scripts other than the inspector's own, framing, sniffing, caching
///   and referrers.
struct InspectorGuard: RouterMiddleware {
    typealias Context = BasicRequestContext

    let token: String
    /// The port the server listens on, known once it has bound.
    let port: Locked<Int>
    /// Whether the server listens on loopback only, where the `Host` check applies.
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await respond(to: request, context: context, next: next)
        response.headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        response.headers[Self.frameOptions] = "DENY"
        return response
    }

    private func respond(to request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let port = port.withLock { $0 }
        // HTTP gives a request one Host; with two, a proxy and this server could each read
        // another one.
        if request.headers[Self.secondHost] != nil {
            return Page.plain(.badRequest, "This request has two Host headers; send one.")
        }
        if loopbackOnly, !Self.isLoopback(host: request.head.authority, port: port) {
            return Page.plain(.misdirectedRequest, "This inspector answers only at 127.0.0.1:\(port) or localhost:\(port).")
        }
        if let site = request.headers[Self.fetchSite], site != "same-origin", site != "none" {
            return Page.plain(.forbidden, "This inspector answers its own pages and addresses opened in the browser, not requests from another site or port (Sec-Fetch-Site: \(site)).")
        }
        // Under the pages' `Referrer-Policy: no-referrer` a browser sends its own forms with
        // `Origin: null`; `Sec-Fetch-Site` and the form's token decide those.
        if request.method == .post, let origin = request.headers[.origin], origin != "null", !Self.isLoopback(origin: origin, port: port) {
            return Page.plain(.forbidden, "This inspector takes forms only from its own pages, not from \(origin).")
        }
        let query = QueryString(parsing: request.uri.query)
        if let offered = query["token"] {
            guard Self.same(offered, token) else { return refused() }
            var response = Response(status: .seeOther, headers: [.location: Self.samePage(request.uri.path) + query.setting("token", nil).encoded])
            response.setCookie(Cookie(name: cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        guard let presented = request.cookies[cookieName]?.value, Self.same(presented, token) else { return refused() }
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            // The server's own refusals (no such route, a form too large) say what happened too.
            return Page.plain(error.status, error.body ?? Self.sentence(for: error.status, path: request.uri.path))
        }
    }

    /// What an error status the server answers by itself means, in one line.
    private static func sentence(for status: HTTPResponse.Status, path: String) -> String {
        switch status {
        case .notFound: "There is no page at \(path) in this inspector; its pages start at the overview, /."
        case .contentTooLarge: "This form is larger than the inspector takes (\(InspectorServer.maximumFormSize / 1024) KB)."
        default: "The inspector could not answer this request (\(status.code) \(status.reasonPhrase))."
        }
    }

    /// `path` as a path on this server: a browser reads `//host/…` (and `/\host/…`) as
    /// another site, so the redirect that drops the token keeps one leading slash.
    static func samePage(_ path: String) -> String {
        "/" + path.drop { $0 == "/" || $0 == "\\" }
    }

    /// A `Host` header left among the fields: the first one became the request's authority.
    private static let secondHost = HTTPField.Name("Host")!
    private static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    private static let frameOptions = HTTPField.Name("X-Frame-Options")!

    /// The cookie that carries the token, one per port.
    private var cookieName: String {
        "signalstore_inspector_\(port.withLock { $0 })"
    }

    private func refused() -> Response {
        Page.plain(.forbidden, "This inspector needs its token: open the whole URL that `signalstore inspect` printed (it ends with ?token=…).")
    }

    /// Whether `host` (the request's `Host`) names this machine's loopback at `port`.
    static func isLoopback(host: String?, port: Int) -> Bool {
        guard let host else { return false }
        return ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"].contains(host.lowercased())
    }

    /// Whether `origin` (a request's `Origin`) is this inspector's own, on loopback at `port`.
    static func isLoopback(origin: String, port: Int) -> Bool {
        guard origin.lowercased().hasPrefix("http://") else { return false }
        return isLoopback(host: String(origin.dropFirst("http://".count)), port: port)
    }

    /// Compares two tokens in time that does not depend on where they differ.
    static func same(_ offered: String, _ token: String) -> Bool {
        let left = Array(offered.utf8), right = Array(token.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
#endif
