#if SIGNALSTORE_SYNC
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Turns the PostgreSQL driver's errors into ``SyncError``s that say what happened and what
/// to do, in one line, with the URL redacted. The driver's own text is never passed through
/// whole: it may quote the query, and with it values.
enum ServerErrors {
    static func describe(_ error: any Error, url: PostgresURL, while action: String) -> SyncError {
        let sqlState = (error as? PSQLError)?.serverInfo?[.sqlState]
        return rewrite(error, url: url, while: action).with(sqlState: sqlState, server: "\(url.host):\(url.port)")
    }

    private static func rewrite(_ error: any Error, url: PostgresURL, while action: String) -> SyncError {
        let place = "PostgreSQL at \(url.host):\(url.port)"
        if let error = error as? SyncError { return error }
        guard let error = error as? PSQLError else { return network(error, place: place, action: action, url: url) }
        switch error.code {
        case .server:
            return server(error, url: url, place: place)
        case .sslUnsupported:
            return SyncError(.refused, "\(place) does not offer TLS, and the URL asks for sslmode=require; enable ssl on the server, or use sslmode=prefer or sslmode=disable")
        case .authMechanismRequiresPassword:
            let file = url.passwordFileProblem.map { " (\($0))" } ?? ""
            return SyncError(.refused, "\(place) asks for a password for user '\(url.username)', and none was given\(file); set PGPASSWORD, add a line to ~/.pgpass (or the file PGPASSFILE names), or put it in the URL")
        case .unsupportedAuthMechanism, .saslError:
            return SyncError(.refused, "\(place) asked for an authentication method this client does not support for user '\(url.username)'; use scram-sha-256, md5 or password in pg_hba.conf")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .queryCancelled:
            return network(error.underlying ?? error, place: place, action: action, url: url)
        default:
            return SyncError(.server, "\(action.prefix(1).uppercased())\(action.dropFirst()) \(place) failed (\(error.code)); run again, and check the server's log if it persists")
        }
    }

    private static func server(_ error: PSQLError, url: PostgresURL, place: String) -> SyncError {
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = url.redacting(error.serverInfo?[.message] ?? "no message")
        switch state {
        case "28000" where message.hasSuffix("no encryption"):
            return SyncError(.refused, "\(place) accepts only TLS connections from this client, and the URL has sslmode=disable; use sslmode=verify-full with the server's CA as sslrootcert=PATH (or sslmode=require)")
        case "28000" where message.hasSuffix("SSL encryption") || message.hasSuffix("GSS encryption"):
            return SyncError(.refused, "\(place) accepts only unencrypted connections from this client; use sslmode=disable, or enable hostssl for it in the server's pg_hba.conf")
        case "28P01", "28000":
            return SyncError(.refused, "\(place) refused user '\(url.username)': \(message); check the user and password in the URL or SIGNALSTORE_POSTGRES_URL")
        case "3D000":
            return SyncError(.refused, "\(place) has no database '\(url.database)'; create it (createdb \(url.database)) or name another in the URL")
        case "42501":
            return SyncError(.refused, "user '\(url.username)' may not use the sync tables on \(place): \(message); grant it CREATE and USAGE on schema '\(url.schema)', or connect as their owner; on a server set up for scopes, give it scopes with `signalstore sync grant`")
        case ServerLogSQL.foreignOriginState:
            // This file's origin is another role's: a copy of its file, or a file synced before as another role.
            return SyncError(.duplicateOrigin, "\(place) refused the upload: \(message); sync this file as the role that made it, or give it its own origin with `signalstore sync --new-origin` (SyncClient.renewOrigin())")
        case ServerLogSQL.malformedState:
            return SyncError(.server, "\(place) refused the upload: \(message); this client or the server's sync functions differ from this SignalStore's")
        case "57P01", "57P02", "57P03", "53300", "08006", "08001", "08004":
            return SyncError(.unreachable, "\(place) is not accepting work now: \(message); sync retries")
        case "57014" where message.contains("statement timeout"):
            // Not the log's lock (an upload turns its own timeout into "busy", `ServerLog`): the
            // user's or the database's statement_timeout. Trying again fails the same way.
            let role = "\"" + url.username.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return SyncError(.server, "\(place) cancelled a statement of sync at its statement_timeout (\(message)); sync's statements need longer for user '\(url.username)': raise it for the user (ALTER ROLE \(role) SET statement_timeout = '5min') or unset it")
        case "57014":
            // Cancelled by request (`pg_cancel_backend`, a pooler's cancel): nothing is wrong
            // with the round, and it goes again.
            return SyncError(.unreachable, "\(place) cancelled a statement of sync: \(message); sync retries")
        case "40P01", "40001":
            // Another session's locks met this one's (a deadlock, a serialization failure): the
            // transaction rolled back whole, and the same round goes again.
            return SyncError(.unreachable, "\(place) rolled the round back: \(message); sync retries")
        default:
            return SyncError(.server, "\(place) reported: \(message) (SQLSTATE \(state)); check the server's log")
        }
    }

    private static func network(_ error: any Error, place: String, action: String, url: PostgresURL) -> SyncError {
        if let refusal = tls(error, place: place, url: url) { return refusal }
        switch ConnectFailure(error) {
        case .timedOut:
            return SyncError(.unreachable, "timed out \(action) \(place); check the host and port, and that no firewall drops the connection")
        case .refused:
            return SyncError(.unreachable, "cannot reach \(place): connection refused; is PostgreSQL running, and listening on that address and port?")
        case .unknownHost:
            return SyncError(.unreachable, "cannot find host '\(url.host)' (name lookup failed); check the URL's host")
        case nil:
            break
        }
        return SyncError(.unreachable, "lost the connection to \(place) while \(action.replacingOccurrences(of: " to", with: "").replacingOccurrences(of: " from", with: "")) it; sync retries")
    }

    /// A TLS handshake that failed: the certificate is not trusted or not for this host. Not
    /// transient: retrying meets the same certificate.
    private static func tls(_ error: any Error, place: String, url: PostgresURL) -> SyncError? {
        let trusted = url.rootCertificatePath.map { "the CA in sslrootcert '\($0)'" } ?? "an authority the system trusts"
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return SyncError(.refused, "the TLS certificate of \(place) is not issued for '\(url.host)'; connect by a host name the certificate lists, or use sslmode=verify-ca to check only who signed it")
        }
        guard let error = error as? NIOSSLError, case .handshakeFailed = error else { return nil }
        // By text: swift-nio-ssl keeps BoringSSL's error code private (`BoringSSLInternalError`),
        // and its description, which holds the reason's name, is the only public form of it.
        if String(describing: error).contains("CERTIFICATE_VERIFY_FAILED") {
            return SyncError(.refused, "the TLS certificate of \(place) is not signed by \(trusted); give the CA that signed it as sslrootcert=PATH, or use sslmode=require to encrypt without checking the certificate")
        }
        return SyncError(.refused, "the TLS handshake with \(place) failed; check the server's ssl settings, or use sslmode=disable on a trusted network")
    }
}

/// Why a connection could not be opened, read from SwiftNIO's error values (never from their
/// text): the attempt timed out, every address refused it, or the host name did not resolve.
private enum ConnectFailure {
    case timedOut
    case refused
    case unknownHost

    init?(_ error: any Error) {
        switch error {
        case ChannelError.connectTimeout:
            self = .timedOut
        case let error as NIOConnectionError:
            if !error.connectionErrors.isEmpty {
                // Every address was tried: refused only if each one refused.
                let failures = error.connectionErrors.map { ConnectFailure($0.error) }
                guard let first = failures.first, failures.allSatisfy({ $0 == first }), let first else { return nil }
                self = first
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                self = .unknownHost
            } else {
                return nil
            }
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            self = .refused
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            self = .unknownHost
        default:
            return nil
        }
    }
}
#endif
