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

    private struct State {
        /// Actions waiting for their turn, oldest first.
        var waiting: [@Sendable () -> Void] = []
        /// Where the next waiting action is (the line is compacted when it empties).
        var next = 0
        /// Whether the main thread is running actions of this scheduler now.
        var isRunning = false
        /// Whether a turn on the main queue has been asked for and has not started.
        var turnRequested = false
    }

    private let state = Locked(State())
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
        let onMain = Self.isOnMainQueue
        let step = state.withLock { state -> NextStep in
            if onMain, !state.isRunning, state.next == state.waiting.count {
                state.isRunning = true
                return .runNow
            }
            state.waiting.append(action)
            // A main thread that is running actions takes this one in the same loop; a turn
            // already asked for takes it too.
            if state.isRunning || state.turnRequested { return .nothing }
            state.turnRequested = true
            return .requestTurn
        }
        switch step {
        case .runNow:
            action()
            runWaiting()
        case .requestTurn:
            requestTurn()
        case .nothing:
            break
        }
    }

    private enum NextStep {
        case runNow, requestTurn, nothing
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

    /// Asks the main queue for a turn to run the waiting actions.
    private func requestTurn() {
        DispatchQueue.main.async { [self] in
            let start = state.withLock { state -> Bool in
                state.turnRequested = false
                guard !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if start { runWaiting() }
        }
    }

    /// Runs waiting actions one at a time, with the lock released while each runs, until the
    /// line is empty. Called on the main queue with `isRunning` set.
    private func runWaiting() {
        while let action = state.withLock({ state -> (@Sendable () -> Void)? in
            guard state.next < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: true)
                state.next = 0
                state.isRunning = false
                return nil
            }
            defer { state.next += 1 }
            return state.waiting[state.next]
        }) {
            action()
        }
    }
}

/// Marks the main queue so that ``MainScheduler/isOnMainQueue`` can recognize it on every
/// platform (Foundation's `Thread.isMainThread` is not available to this module).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
