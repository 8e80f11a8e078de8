#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreTestSupport
import Testing

/// `tcp_proxy.py` in front of a PostgreSQL server: a link the test can cut, closing every
/// connection through it at once, as a network outage does.
struct TCPProxy {
    let process: ChildProcess
    /// The server's URL, through the proxy.
    let url: String

    init(to serverURL: String) throws {
        let target = URLComponents(string: serverURL)!
        process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", packageRoot.appendingPathComponent("Tests/SyncTests/tcp_proxy.py").path, target.host!, String(target.port!),
        ])
        #expect(process.output.wait(timeout: 10) { $0.contains("\n") }, "the proxy did not start: \(process.error.value)")
        var proxied = target
        proxied.port = Int(process.output.value.trimmingCharacters(in: .whitespacesAndNewlines))
        url = proxied.string!
    }

    /// Closes every open connection; new ones are accepted again at once.
    func cut() {
        process.send(SIGUSR1)
    }

    func stop() {
        process.send(SIGKILL)
        _ = process.waitForExit(timeout: 5)
    }
}
#endif
