import Foundation

/// Where the server's log lives: a PostgreSQL connection URL, parsed and checked, that never
/// shows its password.
///
/// ```
/// postgres://user:password@host:5432/database?sslmode=require&schema=signalstore
/// ```
///
/// - `sslmode`: `disable` (plain TCP), `prefer` (TLS if the server offers it; the default, as
///   for `libpq`), or `require` (TLS with the server's certificate verified against the
///   system's trust roots; the connection fails without it).
/// - `schema`: the PostgreSQL schema that holds the sync tables (default `signalstore`).
///   Replicas that share state use the same one.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    public let host: String
    public let port: Int
    public let username: String
    let password: String?
    public let database: String
    public let tls: TLSMode
    /// The PostgreSQL schema of the sync tables.
    public let schema: String

    /// Parses `text`.
    /// - Throws: ``SyncError/invalidURL(_:)``, whose message never contains the password.
    public init(_ text: String) throws(SyncError) {
        let expected = "expected postgres://user:password@host:port/database[?sslmode=disable|prefer|require&schema=name]"
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased()
        else { throw .invalidURL("the PostgreSQL URL is not a URL: \(expected)") }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL("the PostgreSQL URL starts with '\(scheme):', not 'postgres:'; \(expected)")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL("the PostgreSQL URL names no host; \(expected)") }
        guard let username = components.user.flatMap({ $0.removingPercentEncoding }), !username.isEmpty else {
            throw .invalidURL("the PostgreSQL URL names no user; \(expected)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        var tls = TLSMode.prefer
        var schema = "signalstore"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: item.value ?? "") else {
                    throw .invalidURL("sslmode '\(item.value ?? "")' is not supported; use disable, prefer or require")
                }
                tls = mode
            case "schema":
                let name = item.value ?? ""
                guard name.range(of: "^[a-z_][a-z0-9_]{0,62}$", options: .regularExpression) != nil else {
                    throw .invalidURL("schema '\(name)' is not a plain PostgreSQL name; use lowercase letters, digits and _")
                }
                schema = name
            default:
                throw .invalidURL("the PostgreSQL URL has an unknown parameter '\(item.name)'; known: sslmode, schema")
            }
        }
        self.tls = tls
        self.schema = schema
    }

    /// The URL with the password replaced by `***`: what every message shows.
    public var redacted: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let secret = password == nil ? "" : ":***"
        let path = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        return "postgres://\(user)\(secret)@\(host):\(port)/\(path)?sslmode=\(tls.rawValue)&schema=\(schema)"
    }

    public var description: String { redacted }

    /// Replaces the password wherever it appears in `text`: a last guard for messages that
    /// carry text from elsewhere.
    func redacting(_ text: String) -> String {
        guard let password, !password.isEmpty else { return text }
        var result = text.replacingOccurrences(of: password, with: "***")
        if let encoded = password.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed), encoded != password {
            result = result.replacingOccurrences(of: encoded, with: "***")
        }
        return result
    }
}
