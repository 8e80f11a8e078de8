#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// The PostgreSQL server the sync tests run against: a real server, started by `.ci/run` (or by
/// hand with `eval "$(.ci/postgres start)"`), named by `SIGNALSTORE_TEST_POSTGRES_URL`.
enum TestServer {
    static let baseURL = ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_URL"]

    /// Whether the sync suites run: with a server, and always in CI (where a missing server is
    /// a failure, not a skip).
    static let isEnabled = baseURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// A URL of the server with a schema of its own, so every test starts from an empty log.
    static func freshURL(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard let baseURL else {
            Issue.record("SIGNALSTORE_TEST_POSTGRES_URL is not set; start a server with `eval \"$(.ci/postgres start)\"`", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return baseURL + (baseURL.contains("?") ? "&" : "?") + "schema=\(schema)"
    }

    /// The second server, which accepts TLS connections only, with the tests' CA as
    /// `sslrootcert` (`.ci/postgres` starts both).
    static let tlsURL = ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_TLS_URL"]

    /// A URL of the TLS server with a schema of its own.
    static func freshTLSURL(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard let tlsURL else {
            Issue.record("SIGNALSTORE_TEST_POSTGRES_TLS_URL is not set; start the servers with `eval \"$(.ci/postgres start)\"`", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return tlsURL + "&schema=t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// The server's password, which no output may contain.
    static var password: String {
        guard let baseURL, let components = URLComponents(string: baseURL) else { return "" }
        return components.password ?? ""
    }

    /// `url` with another password.
    static func withPassword(_ url: String, _ password: String) -> String {
        var components = URLComponents(string: url)!
        components.password = password
        return components.string!
    }

    /// `url` on a port where nothing listens.
    static func unreachable(_ url: String) -> String {
        var components = URLComponents(string: url)!
        components.port = 1
        return components.string!
    }
}

/// A TCP port on loopback that takes connections (the kernel completes them) and never says a
/// word: a client connecting to it waits in PostgreSQL's startup until it gives up.
final class SilentServer {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Glibc.bind(socket, generic, length) == 0 && listen(socket, 16) == 0
                    && getsockname(socket, generic, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

/// A database file that syncs: the package's migrations, opened as a store.
struct Replica {
    let path: String
    let store: Store

    init(_ folder: TemporaryDirectory, _ name: String) throws {
        path = folder.path("\(name).sqlite")
        store = try Store(path: path, migrations: packageMigrations, pollInterval: .milliseconds(10))
    }

    /// A replica on a schema of the test's own.
    init(_ folder: TemporaryDirectory, _ name: String, migrations: [Migration]) throws {
        path = folder.path("\(name).sqlite")
        store = try Store(path: path, migrations: migrations, pollInterval: .milliseconds(10))
    }

    /// Every row of the synced tables, as text, sorted: what two converged replicas share.
    func contents() throws -> [String] {
        try store.readConnection { connection in
            var lines: [String] = []
            for table in ["customers", "orders"] {
                for row in try connection.statement("SELECT * FROM \(table) ORDER BY 1").rows() {
                    lines.append("\(table) " + row.map(\.description).joined(separator: " | "))
                }
            }
            return lines
        }
    }

    func client(_ url: String, tables: [String]? = nil) throws -> SyncClient {
        SyncClient(store: store, url: try PostgresURL(url), tables: tables, pollInterval: .milliseconds(200))
    }
}

/// Runs a round of sync (as `sync --once` does) on every replica until a round moves nothing
/// (at most five rounds).
func settle(_ replicas: [Replica], _ url: String) async throws {
    for _ in 0..<5 {
        var moved = false
        for replica in replicas {
            let progress = try await replica.client(url).syncOnce()
            moved = moved || progress.uploaded > 0 || progress.downloaded > 0
        }
        if !moved { return }
    }
}

/// The `signalstore` executable.
let signalstore = builtExecutable("signalstore")

/// Waits, without blocking a thread, until `condition` holds.
///
/// The timeout only bounds a failure; passing runs take milliseconds to a few seconds. Tests
/// that block run on their own threads (`.ownThread`), so a sync client's next step no longer
/// waits for a worker thread of the concurrency runtime (it waited up to 30 s when blocked
/// tests held both of a 2-core machine's, and the waits here had been raised to 120 s).
func eventuallyAsync(timeout: Duration = .seconds(20), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}
#endif
