import Dispatch
import Signals
import Synchronization

/// A thread-safe list the tests append to from callbacks.
final class Log<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var elements: [Element] {
        storage.withLock { $0 }
    }

    var count: Int {
        storage.withLock { $0.count }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() {
        value.add(1, ordering: .relaxed)
    }

    var count: Int {
        value.load(ordering: .relaxed)
    }
}

/// An object to watch with a weak reference in leak tests.
final class Token: Sendable {}

/// Waits on a condition without sleeping-and-hoping: checks `condition` every 100 µs and fails
/// after `timeout`. For conditions on work done by Dispatch threads; in `async` tests use
/// ``eventually(timeout:_:)``.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        usleep(100)
    }
    return true
}

/// The async form of ``waitUntil(timeout:_:)``: checks `condition` between short suspensions,
/// so the tasks it waits for can run on the cooperative pool. It runs on the caller's actor, so a
/// main-actor test can wait on main-actor state (and lets the main actor run while it waits).
/// Each sleep resumes through the pool, which other tests' synchronous work can hold for seconds
/// under a sanitizer, hence the long timeout; the wait ends as soon as `condition` holds.
func eventually(
    timeout: Duration = .seconds(60),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Runs `body` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
