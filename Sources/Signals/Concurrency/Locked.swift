#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value protected by a mutex that lives in the same heap allocation.
///
/// The lock of almost all state in the package. The others, all in this folder and all on
/// ``PlatformMutex`` (which says why pthread, not `Synchronization.Mutex`), exist only where
/// this one cannot serve:
/// - ``LockPool``: subscriptions share 64 pooled mutexes instead of allocating one each, on
///   their rare slow paths (about 100 bytes saved per subscription);
/// - ``RecursiveLock``: the store's writer lock, held across a `store.transaction` body that
///   writes again on the same thread, and a model's lock;
/// - ``LockedCondition``: the three places that block a thread until a state is reached (the
///   reader pool, the test recorder, the CLI's stop latch);
/// - `Atomic` flag words (Synchronization), for the one-CAS entry of a subscription's
///   serialized section and a subject's state, where even an uncontended mutex costs too much.
///
/// To try `Synchronization.Mutex` here, replace ``LockedStorage`` with a class holding a
/// `Mutex<State>`: the API (`withLock`) is the same, and no caller changes.
///
/// Rule of use: never call user code inside ``withLock(_:)``. Change the state, return what has to
/// be done, and do it after the lock is released.
@usableFromInline
package struct Locked<State>: @unchecked Sendable {
    // @unchecked: every access to the state goes through `withLock`, which holds the mutex.
    @usableFromInline let storage: LockedStorage<State>

    /// Creates the lock around an initial state.
    @inlinable
    package init(_ initialState: State) {
        storage = LockedStorage.make(initialState)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

/// The heap object behind ``Locked``: the state as the header, the mutex as the tail element, so
/// a lock and its state cost one allocation.
@usableFromInline
final class LockedStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    @inlinable
    static func make(_ initialState: State) -> LockedStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        buffer.withUnsafeMutablePointerToElements { mutex in PlatformMutex.initialize(mutex) }
        // `create` is declared to return the base class; it allocates an instance of `Self`.
        return unsafeDowncast(buffer, to: LockedStorage<State>.self)
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            PlatformMutex.lock(mutex)
            defer { PlatformMutex.unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in PlatformMutex.destroy(mutex) }
    }
}
