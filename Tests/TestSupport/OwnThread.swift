import Foundation
import Signals
import Testing

/// Runs each test of a suite on a thread of its own instead of the concurrency runtime's
/// cooperative pool, for tests that block: they wait for a child process, poll a condition
/// with sleeps, or read from a pipe.
///
/// Swift Testing runs even a synchronous test on the cooperative pool, which has one thread per
/// core. On a 2-core machine two tests waiting for children held both threads, and every async
/// test (a sync client's next step, say) waited up to ~30 s for a thread. With this trait the
/// blocking happens on the test's own thread; the pool stays free for async work. At most
/// ``limit`` such tests run at once, waited for without blocking, so a full run does not start
/// hundreds of child processes together.
///
/// ```swift
/// @Suite(.ownThread) struct CommandTests { … }
/// ```
/// Give it only to tests that block: the wait for a slot counts against a `.timeLimit`, and
/// async tests that only suspend do not need a thread of their own.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    /// The most tests on their own threads at once: enough to overlap waits on two cores.
    public static let limit = 4
    private static let slots = AsyncSlots(limit)

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else { return try await function() }
        await Self.slots.acquire()
        let executor = ThreadExecutor(name: test.name)
        defer {
            executor.finish()
            Task { await Self.slots.release() }
        }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test runs on a thread of its own, so its blocking waits leave the cooperative pool
    /// free (see ``OwnThreadTrait``).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A counting semaphore for async code: waiting suspends, it never blocks a thread.
private actor AsyncSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
