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
///
/// The timeout is long because a sleeping task resumes through the shared thread pool, which
/// synchronous tests elsewhere in the process may hold for many seconds under a sanitizer; the
/// wait returns as soon as the condition holds.
func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// Returns once the main queue has run every block queued on it before this call: deliveries
/// that other threads' commits queued have had their turn (the main queue runs blocks in order).
/// A check that nothing arrived then waits on the queue, not on a clock.
func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
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

/// Holds every thread of Swift's shared thread pool blocked, as synchronous work elsewhere in a
/// process can, until ``release(byWatchdog:)``; a watchdog thread releases it after `limit` so a
/// failing test cannot hang the process.
nonisolated final class BlockedThreadPool: Sendable {
    private let width = ProcessInfo.processInfo.activeProcessorCount
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let release = Locked<(done: Bool, byWatchdog: Bool)>((false, false))

    /// Starts one blocking task per pool thread and returns once they all run (or 10 s pass).
    func block(limit: TimeInterval) {
        for _ in 0..<width {
            Task.detached { self.waitAtTheGate() }
        }
        for _ in 0..<width {
            _ = started.wait(timeout: .now() + 10)
        }
        Thread {
            Thread.sleep(forTimeInterval: limit)
            self.release(byWatchdog: true)
        }.start()
    }

    /// Lets the blocked threads go; only the first call counts.
    func release(byWatchdog: Bool = false) {
        let first = release.withLock { state in
            guard !state.done else { return false }
            state = (true, byWatchdog)
            return true
        }
        guard first else { return }
        for _ in 0..<width { gate.signal() }
    }

    /// Whether the watchdog, not the test, let the threads go.
    var wasReleasedByWatchdog: Bool {
        release.withLock { $0.byWatchdog }
    }

    private func waitAtTheGate() {
        started.signal()
        gate.wait()
    }
}
