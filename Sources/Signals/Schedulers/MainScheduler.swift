import Dispatch

/// A scheduler for the main actor that runs work at once when it can.
///
/// An action scheduled on the main queue (where the main actor runs) while nothing of this
/// scheduler is waiting runs immediately, before `schedule` returns; otherwise it joins the
/// scheduler's first-in, first-out line, which the main queue works through. So a value sent on
/// the main actor reaches a main-actor view in the same turn (no empty first frame, no queue
/// hop), and values sent from other threads arrive on the main actor in the order they were
/// sent.
///
/// Each instance keeps its own line. ``Signal/observe(on:)`` gives every subscription its own
/// instance, so the values waiting for one subscription never delay another's replayed value;
/// ``shared`` is one line for everything else.
///
/// ```swift
/// let label = MutableProperty("")
/// let count = MutableProperty(1)
/// let binding = count.signal
///     .map { "× \($0)" }
///     .observe(on: MainScheduler.shared)
///     .bind(to: label)
/// ```
/// Views usually need none of this: ``Signal/subscribeOnMain(onValue:onFailure:onCompleted:)``
/// and ``Signal/bind(to:_:)`` use this scheduler for you.
public final class MainScheduler: Scheduler {
    /// A main-actor scheduler shared by everyone who schedules on it.
    public static let shared = MainScheduler()

    private let line = MainQueueLine<@Sendable () -> Void> { action in action() }
    private let origin = ContinuousClock.now

    /// Creates a main-actor scheduler with a line of its own.
    public init() {}

    /// Time elapsed since the scheduler was created.
    public var now: Duration {
        ContinuousClock.now - origin
    }

    /// Whether the calling code runs on the main queue, where the main actor runs.
    public static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Runs `action` now if called on the main queue with nothing waiting, else after every
    /// action scheduled before it, on the main queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        line.enqueue(action)
    }

    /// Runs `action` on the main queue once `delay` has passed, unless cancelled first. Delayed
    /// actions join the line when they are due.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancellation = AnyDisposable()
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
            schedule { if !cancellation.isDisposed { action() } }
        }
        return cancellation
    }
}

/// Marks the main queue so that ``MainScheduler/isOnMainQueue`` can recognize it on every
/// platform (Foundation's `Thread.isMainThread` is not available to this module).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
