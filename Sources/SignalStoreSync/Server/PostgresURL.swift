#if SIGNALSTORE_SYNC
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
///
/// As in `libpq`, the user, password and database are percent-decoded exactly once
/// (`p%40ss%3Aw%2Frd` is the password `p@ss:w/rd`), and a URL without a password takes it from
/// `PGPASSWORD`, else from the password file (`PGPASSFILE`, default `~/.pgpass`), so the
/// password need not appear in a process list.
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
    /// Whether the URL itself holds the password (else it came from the environment or the
    /// password file, and the redacted URL shows none).
    private let passwordInURL: Bool
    /// Why the password file was not used, when the URL and `PGPASSWORD` give no password and
    /// a file exists: said again if the server then asks for a password.
    let passwordFileProblem: String?
    /// The database (the user's name unless the URL names another).
    public let database: String
    /// How the connection uses TLS (`sslmode`).
    public let tls: TLSMode
    /// The `sslrootcert` file: the certificate authorities trusted to sign the server's
    /// certificate, or `nil` for the system's trust roots.
    public let rootCertificatePath: String?
    /// The PostgreSQL schema of the sync tables.
    public let schema: String

    /// Parses `text`; a URL without a password takes it from `PGPASSWORD` or the password file,
    /// as `libpq` does.
    /// - Parameters:
    ///   - text: The URL.
    ///   - environment: Where `PGPASSWORD`, `PGPASSFILE` and `HOME` are read.
    /// - Throws: ``SyncError/invalidURL``, whose message never contains the password.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SyncError) {
        let expected = "expected postgres://user:password@host:port/database[?sslmode=MODE&sslrootcert=PATH&schema=NAME]"
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased()
        else { throw SyncError(.invalidURL, "the PostgreSQL URL is not a URL: \(expected)") }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw SyncError(.invalidURL, "the PostgreSQL URL starts with '\(scheme):', not 'postgres:'; \(expected)")
        }
        guard let host = components.host, !host.isEmpty else { throw SyncError(.invalidURL, "the PostgreSQL URL names no host; \(expected)") }
        // The percent-encoded parts as written, decoded once here. URLComponents' `user`,
        // `password` and `path` are decoded already (decoding them again broke passwords with a
        // `%`), and it re-escapes a malformed `%`, which libpq refuses.
        let raw = RawParts(text.trimmingCharacters(in: .whitespaces))
        guard let username = Self.decoded(raw.user), !username.isEmpty else {
            throw SyncError(.invalidURL, "the PostgreSQL URL names no user, or its user has a malformed %-escape; \(expected)")
        }
        guard let path = Self.decoded(raw.path) else {
            throw SyncError(.invalidURL, "the PostgreSQL URL's database has a malformed %-escape; write a % in it as %25")
        }
        guard let urlPassword = Self.decodedPassword(raw.password) else {
            throw SyncError(.invalidURL, "the PostgreSQL URL's password has a malformed %-escape; write a % in it as %25")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.database = path.isEmpty ? username : path
        let resolved = PasswordFile.password(url: urlPassword, host: host, port: port, database: database, user: username, environment: environment)
        self.password = resolved.password
        self.passwordInURL = urlPassword != nil
        self.passwordFileProblem = resolved.problem
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

    /// `text` percent-decoded once; `nil` for a malformed escape (a `%` not followed by two hex
    /// digits), which libpq refuses too.
    private static func decoded(_ text: String?) -> String? {
        guard let text else { return nil }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URL's password decoded once: `.some(nil)` when the URL has none, `nil` when its
    /// escapes are malformed.
    private static func decodedPassword(_ text: String?) -> String?? {
        guard let text else { return .some(nil) }
        guard let password = decoded(text) else { return nil }
        return .some(password)
    }

    /// The URL with the password replaced by `***`: what every message shows.
    public var redacted: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let secret = passwordInURL ? ":***" : ""
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

/// The user, password and database of a URL exactly as written (still percent-encoded).
private struct RawParts {
    var user: String?
    var password: String?
    var path = ""

    init(_ text: String) {
        guard let start = text.range(of: "://")?.upperBound else { return }
        let rest = text[start...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                user = String(userInfo[..<colon])
                password = String(userInfo[userInfo.index(after: colon)...])
            } else {
                user = String(userInfo)
            }
        }
        if authorityEnd < rest.endIndex, rest[authorityEnd] == "/" {
            let pathStart = rest.index(after: authorityEnd)
            let pathEnd = rest[pathStart...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
            path = String(rest[pathStart..<pathEnd])
        }
    }
}
#endif
