#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreTestSupport

/// What `.ci/postgres` printed when it failed.
private struct ServerScriptFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A PostgreSQL server of one test's own (`.ci/postgres start --without-tls`), which it may
/// restart without disturbing the other tests' server.
struct PrivateServer {
    let url: String
    let directory: String
    private static let script = packageRoot.appendingPathComponent(".ci/postgres").path

    init() throws {
        let started = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script, "start", "--without-tls"])
        func exported(_ name: String) -> String? {
            started.output.split(separator: "\n").lazy.compactMap { line -> String? in
                let prefix = "export \(name)='"
                guard line.hasPrefix(prefix), line.hasSuffix("'") else { return nil }
                return String(line.dropFirst(prefix.count).dropLast())
            }.first
        }
        guard started.status == 0, let url = exported("SIGNALSTORE_TEST_POSTGRES_URL"), let directory = exported("SIGNALSTORE_TEST_POSTGRES_DIR") else {
            throw ServerScriptFailure("a private PostgreSQL server did not start (exit status \(started.status)): \(started.error)")
        }
        self.url = url
        self.directory = directory
    }

    /// Restarts the server; returns once it accepts connections.
    func restart() throws {
        let restarted = try runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script, "restart", directory])
        guard restarted.status == 0 else { throw ServerScriptFailure("PostgreSQL did not restart: \(restarted.error)") }
    }

    func stop() {
        _ = try? runProgram(URL(fileURLWithPath: "/bin/bash"), [Self.script, "stop", directory])
    }
}
#endif
