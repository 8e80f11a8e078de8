#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed pool of mutexes shared by objects that need a lock only on rare slow paths.
///
/// A subscription takes a lock only when it has to queue work, attach resources or end; giving
/// each subscription its own mutex would cost a heap allocation (about 100 bytes) per
/// subscription. Objects hash to one of the pool's mutexes instead. Sharing is safe because a
/// holder of a pool lock never takes another pool lock and never runs user code or releases
/// user objects while holding it.
@usableFromInline
final class LockPool: @unchecked Sendable {
    // @unchecked: the mutexes are only used through PlatformMutex, whose calls synchronize
    // themselves.
    private static let count = 64
    private static let stride = 64   // one cache line per mutex, so neighbours do not contend
    private let storage: UnsafeMutableRawPointer

    /// The pool used by every subscription.
    @usableFromInline static let shared = LockPool()

    private init() {
        storage = UnsafeMutableRawPointer.allocate(byteCount: Self.count * Self.stride, alignment: Self.stride)
        for index in 0..<Self.count {
            let mutex = (storage + index * Self.stride).bindMemory(to: pthread_mutex_t.self, capacity: 1)
            PlatformMutex.initialize(mutex)
        }
        // Never deallocated: the pool lives as long as the process.
    }

    /// Runs `body` holding the mutex assigned to `object`.
    @usableFromInline
    func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        let mutex = self.mutex(for: object)
        PlatformMutex.lock(mutex)
        defer { PlatformMutex.unlock(mutex) }
        return try body()
    }

    private func mutex(for object: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
        // Heap objects are 16-byte aligned, so drop the low bits (no hashing: this is on the
        // subscribe path).
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let index = Int((address >> 4) % UInt(Self.count))
        return (storage + index * Self.stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }
}
