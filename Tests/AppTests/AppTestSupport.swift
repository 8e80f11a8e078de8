import Foundation
import SignalStore
import SignalStoreTestSupport
import Signals

/// A store on a new file with the package's migrations and order 42 in it.
func openStore(in directory: TemporaryDirectory) throws -> (store: Store, order: Order) {
    let store = try Store(path: directory.path("app.sqlite"), migrations: packageMigrationList)
    let order = Order(id: 42, purchaseNum: 1, status: "open")
    try store.insert(order)
    return (store, order)
}

/// ``openStore(in:)`` with customer 1, a main-actor model, in it too.
func openStoreWithCustomer(in directory: TemporaryDirectory) throws -> (store: Store, customer: Customer) {
    let (store, _) = try openStore(in: directory)
    let customer = Customer(id: 1, name: "Ann", email: "ann@example.com")
    try store.insert(customer)
    return (store, customer)
}

/// Waits on the main actor, letting it run, until `condition` holds or `timeout` passes;
/// returns whether it held.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// Runs `sql` in the `sqlite3` shell, a writer in another process with SQLite's defaults.
nonisolated func runShell(_ sql: String, on path: String) throws {
    let result = try runProgram(URL(fileURLWithPath: sqlite3Shell!), [path, sql])
    guard result.status == 0 else { throw ShellFailure(message: result.error) }
}

struct ShellFailure: Error {
    let message: String
}

/// Records from any thread, for callbacks that are `@Sendable` (Observation's `onChange`).
nonisolated final class Recorder<Value: Sendable>: Sendable {
    private let recorded = Locked<[Value]>([])

    func record(_ value: Value) {
        recorded.withLock { $0.append(value) }
    }

    var values: [Value] {
        recorded.withLock { $0 }
    }
}

/// Whether the caller runs on the main dispatch queue, where the main actor runs, checked with a
/// key of the tests' own (not the library's). On Linux, `dispatchMain()` hands the main queue to
/// another thread, so Foundation's `Thread.isMainThread` is false for main-actor code there.
nonisolated func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: testsMainQueueKey) != nil
}

nonisolated private let testsMainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
