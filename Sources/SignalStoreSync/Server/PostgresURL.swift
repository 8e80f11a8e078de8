import Foundation

/// Where the server's log lives: a PostgreSQL connection URL, parsed and checked, that never
/// shows its password.
///
/// ```
/// postgres://user:password@host:5432/database?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem
/// ```
///
/// - `sslmode`, as `libpq` reads it (see ``TLSMode``): `disable`, `prefer` (the default),
///   `require`, `verify-ca` or `verify-full`.
/// - `sslrootcert`: a PEM file of the certificate authorities that may sign the server's
///   certificate, instead of the system's trust roots. With `prefer` or `require` it also turns
///   on verification of who signed the certificate, as in `libpq`.
/// - `schema`: the PostgreSQL schema that holds the sync tables (default `signalstore`).
///   Replicas that share state use the same one.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS: `libpq`'s `sslmode`, so URLs copied from other PostgreSQL
    /// tools mean the same here.
    ///
    /// Only ``verifyFull`` proves that the server is the host the URL names; ``require`` and
    /// ``prefer`` keep the traffic from being read on the way, not from being redirected.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP, never TLS.
        case disable
        /// TLS when the server offers it, plain TCP when it does not. The certificate is not
        /// checked unless `sslrootcert` is given. The default.
        case prefer
        /// TLS, or no connection. The certificate is not checked unless `sslrootcert` is given,
        /// and then only who signed it.
        case require
        /// TLS with the certificate signed by a trusted authority (`sslrootcert`, or the
        /// system's trust roots); the host name is not compared.
        case verifyCA = "verify-ca"
        /// TLS with the certificate signed by a trusted authority and issued for the URL's host
        /// (a name, or an IP address the certificate lists).
        case verifyFull = "verify-full"
    }

    /// The server's host name or IP address.
    public let host: String
    /// The server's TCP port (5432 unless the URL names another).
    public let port: Int
    /// The PostgreSQL user.
    public let username: String
    let password: String?
    /// The database (the user's name unless the URL names another).
    public let database: String
    /// How the connection uses TLS (`sslmode`).
    public let tls: TLSMode
    /// The `sslrootcert` file: the certificate authorities trusted to sign the server's
    /// certificate, or `nil` for the system's trust roots.
    public let rootCertificatePath: String?
    /// The PostgreSQL schema of the sync tables.
    public let schema: String

    /// Parses `text`.
    /// - Throws: ``SyncError/invalidURL``, whose message never contains the password.
    public init(_ text: String) throws(SyncError) {
        let expected = "expected postgres://user:password@host:port/database[?sslmode=MODE&sslrootcert=PATH&schema=NAME]"
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased()
        else { throw SyncError(.invalidURL, "the PostgreSQL URL is not a URL: \(expected)") }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw SyncError(.invalidURL, "the PostgreSQL URL starts with '\(scheme):', not 'postgres:'; \(expected)")
        }
        guard let host = components.host, !host.isEmpty else { throw SyncError(.invalidURL, "the PostgreSQL URL names no host; \(expected)") }
        guard let username = components.user.flatMap({ $0.removingPercentEncoding }), !username.isEmpty else {
            throw SyncError(.invalidURL, "the PostgreSQL URL names no user; \(expected)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        var tls = TLSMode.prefer
        var rootCertificatePath: String?
        var schema = "signalstore"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: item.value ?? "") else {
                    throw SyncError(.invalidURL, "sslmode '\(item.value ?? "")' is not supported; use disable, prefer, require, verify-ca or verify-full")
                }
                tls = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else {
                    throw SyncError(.invalidURL, "sslrootcert is empty; give the path of a PEM file with the certificate authority that signed the server's certificate")
                }
                rootCertificatePath = path
            case "schema":
                let name = item.value ?? ""
                guard name.range(of: "^[a-z_][a-z0-9_]{0,62}$", options: .regularExpression) != nil else {
                    throw SyncError(.invalidURL, "schema '\(name)' is not a plain PostgreSQL name; use lowercase letters, digits and _")
                }
                schema = name
            default:
                throw SyncError(.invalidURL, "the PostgreSQL URL has an unknown parameter '\(item.name)'; known: sslmode, sslrootcert, schema")
            }
        }
        if tls == .disable, rootCertificatePath != nil {
            throw SyncError(.invalidURL, "the URL gives sslrootcert but sslmode=disable turns TLS off; use sslmode=verify-full to check the server's certificate, or drop sslrootcert")
        }
        self.tls = tls
        self.rootCertificatePath = rootCertificatePath
        self.schema = schema
    }

    /// The URL with the password replaced by `***`: what every message shows.
    public var redacted: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let secret = password == nil ? "" : ":***"
        let path = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        let roots = rootCertificatePath.map { "&sslrootcert=\($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0)" } ?? ""
        return "postgres://\(user)\(secret)@\(host):\(port)/\(path)?sslmode=\(tls.rawValue)\(roots)&schema=\(schema)"
    }

    /// The redacted URL (``redacted``), so that printing a `PostgresURL` never shows its password.
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
