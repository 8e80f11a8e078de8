import Foundation
import SignalStore

/// Writes a line to standard output at once (unbuffered), so a parent that kills this process
/// has every line printed before the kill.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Reports a failure and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// Opens the store the parent named, or exits with status 1.
func openStore(path: String, migrations: URL, pollInterval: Duration = .milliseconds(50)) -> Store {
    do {
        return try Store(path: path, migrations: migrations, pollInterval: pollInterval)
    } catch {
        fail("cannot open the store: \(error)")
    }
}

/// Exits with status 1 at the first write that fails through a model (reported on
/// `store.errors`, not thrown). The subscription lasts as long as the process.
func failOnWriteErrors(of store: Store) {
    store.errors.subscribe(onValue: { fail("a write failed: \($0)") })
}
