/// A scheduler that runs every action at once, on the calling thread.
///
/// Delays are ignored: `schedule(after:)` also runs the action immediately. Use it where an
/// operator wants a scheduler but the work should stay synchronous; use ``QueueScheduler`` or a
/// `TestScheduler` for real or virtual time.
public struct ImmediateScheduler: Scheduler {
    private let origin = ContinuousClock.now

    /// Creates an immediate scheduler.
    public init() {}

    /// Time elapsed since this scheduler was created.
    public var now: Duration {
        ContinuousClock.now - origin
    }

    /// Runs `action` at once, on the calling thread.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        action()
    }

    /// Runs `action` at once, on the calling thread, ignoring `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return NoResource.shared
    }
}
