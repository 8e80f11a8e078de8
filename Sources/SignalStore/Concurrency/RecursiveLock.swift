#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex the owning thread may take again: the store's lock, held across a transaction whose
/// body writes through models, and a model's lock, taken again when its signal reads the
/// current value.
///
/// As with every lock here, no signal delivery happens while it is held; a transaction body is
/// the caller's own code, run on purpose inside the transaction.
final class RecursiveLock: @unchecked Sendable {
    // @unchecked: the mutex is only used through pthread calls, which synchronize themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the mutex if it is free or already held by the calling thread; never waits.
    func tryLock() -> Bool {
        pthread_mutex_trylock(mutex) == 0
    }

    /// Releases a mutex taken by ``tryLock()``.
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` holding the mutex.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
