#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex that threads can wait on until it reaches a state: ``Locked`` plus a
/// condition variable. For the few places that must block a thread by design: a pool of reader
/// connections whose callers wait for a free one, a test recorder's blocking wait, the CLI's
/// stop latch. Async code should not block on it; it suspends instead.
package final class LockedCondition<State>: @unchecked Sendable {
    // @unchecked: `state` is read and written only while holding `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State

    /// Creates the lock around an initial state.
    package init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        PlatformMutex.initialize(mutex)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        PlatformMutex.destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state, then wakes every waiter (they check
    /// their condition again).
    @discardableResult
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        PlatformMutex.lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            PlatformMutex.unlock(mutex)
        }
        return try body(&state)
    }

    /// Blocks the calling thread until `isReady` holds for the state or `timeout` passes
    /// (never, when `nil`), then runs `body` on the state under the lock.
    /// - Parameters:
    ///   - isReady: The condition, checked under the lock after every change.
    ///   - timeout: The longest wait.
    ///   - body: Runs under the lock; its second argument says whether `isReady` held.
    package func wait<Result>(
        until isReady: (State) -> Bool,
        timeout: Duration? = nil,
        then body: (inout State, _ isReady: Bool) throws -> Result
    ) rethrows -> Result {
        let deadline = timeout.map(Self.deadline)
        PlatformMutex.lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            PlatformMutex.unlock(mutex)
        }
        while !isReady(state) {
            if var deadline {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return try body(&state, isReady(state))
    }

    /// The wall-clock time `timeout` from now, as `pthread_cond_timedwait` takes it.
    private static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }
}
