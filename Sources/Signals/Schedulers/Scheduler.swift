/// Something that runs work: now, soon, or after a delay.
///
/// Time operators take their scheduler explicitly (`debounce(for: .milliseconds(300), on:
/// scheduler)`), so tests can pass a virtual-time `TestScheduler` from `SignalsTesting` and
/// apps a ``QueueScheduler``.
public protocol Scheduler: Sendable {
    /// The scheduler's clock: time elapsed since a fixed origin of its own.
    var now: Duration { get }

    /// Runs `action` as soon as possible, in the order actions were scheduled.
    func schedule(_ action: @escaping @Sendable () -> Void)

    /// Runs `action` once `delay` has passed.
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative means as soon as possible.
    ///   - action: The work to run.
    /// - Returns: A disposable that cancels the action if it has not started.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}
