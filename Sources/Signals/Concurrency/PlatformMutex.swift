#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that calls the platform's mutex: every lock of the package (``Locked``,
/// ``LockPool``, ``RecursiveLock``, ``LockedCondition``) locks and unlocks through here, so a
/// port to another platform, or a trial of another primitive, changes this file only.
///
/// Why pthread and not `Synchronization.Mutex`: measured on Linux with Swift 6.3, a pthread
/// mutex is about five times faster uncontended (7 ns against 36 ns a lock/unlock pair), and
/// Thread Sanitizer reports false "Swift access races" at `Mutex.withLock` in about one run in
/// five while it stays clean on pthread. `Mutex` also cannot be recursive, cannot be waited on
/// with a condition, and cannot live in the raw memory of ``LockPool``.
@usableFromInline
package enum PlatformMutex {
    /// Initializes the mutex at `mutex`; `recursive` lets the owning thread take it again.
    @inlinable
    package static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, recursive: Bool = false) {
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    /// Takes the mutex, waiting for it.
    @inlinable @inline(__always)
    package static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_lock(mutex)
    }

    /// Takes the mutex if that needs no wait; returns whether it did.
    @inlinable @inline(__always)
    package static func tryLock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Bool {
        pthread_mutex_trylock(mutex) == 0
    }

    /// Releases the mutex.
    @inlinable @inline(__always)
    package static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_unlock(mutex)
    }

    /// Destroys a mutex that no thread holds.
    @inlinable
    package static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
    }
}
