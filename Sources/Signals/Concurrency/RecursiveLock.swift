#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex the owning thread may take again. The store's writer lock needs it: a
/// `store.transaction` body is the caller's own code, run on purpose inside the transaction,
/// and it writes through models, calls `find` or opens a nested transaction on the same thread.
/// A model's lock needs it too: its signal reads the current value while creating the signal.
///
/// As with every lock here, no signal delivery happens while it is held.
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
    // @unchecked: the mutex is only used through PlatformMutex, whose calls synchronize
    // themselves.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked mutex.
    package init() {
        mutex = .allocate(capacity: 1)
        PlatformMutex.initialize(mutex, recursive: true)
    }

    deinit {
        PlatformMutex.destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the mutex if it is free or already held by the calling thread; never waits.
    package func tryLock() -> Bool {
        PlatformMutex.tryLock(mutex)
    }

    /// Releases a mutex taken by ``tryLock()``.
    package func unlock() {
        PlatformMutex.unlock(mutex)
    }

    /// Runs `body` holding the mutex. Inlined, so that each caller's code is compiled for its
    /// result type: called generically, returning a value with references (a model's link) went
    /// through its type's copy functions, some 150 instructions a call.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        PlatformMutex.lock(mutex)
        defer { PlatformMutex.unlock(mutex) }
        return try body()
    }
}
