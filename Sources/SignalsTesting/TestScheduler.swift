import Signals

/// A scheduler with a virtual clock, for testing time-based code deterministically.
///
/// Nothing runs until the test moves the clock: ``advance(by:)`` runs every action due by the
/// new time, in time order (actions due at the same time run in the order they were scheduled),
/// and ``run()`` runs everything. Actions scheduled while advancing run too if they fall due.
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = input.debounce(for: .seconds(1), on: scheduler).record()
/// input.send(1)
/// scheduler.advance(by: .milliseconds(999))   // nothing yet
/// scheduler.advance(by: .milliseconds(1))     // recorder.values == [1]
/// ```
public final class TestScheduler: Scheduler {
    private struct Item {
        let dueTime: Duration
        let order: UInt64
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var items: [Item] = []
        var nextOrder: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates a scheduler whose clock reads zero.
    public init() {}

    /// The virtual time: the sum of all advances so far.
    public var now: Duration {
        state.withLock { $0.now }
    }

    /// Queues `action` to run at the current virtual time, on the next ``advance(by:)``.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        schedule(after: .zero, action)
    }

    /// Queues `action` to run once the virtual clock reaches `now + delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let order = state.withLock { state -> UInt64 in
            let order = state.nextOrder
            state.nextOrder += 1
            state.items.append(Item(dueTime: state.now + max(delay, .zero), order: order, action: action))
            return order
        }
        return AnyDisposable { [weak self] in
            self?.state.withLock { state in state.items.removeAll { $0.order == order } }
        }
    }

    /// Moves the clock forward by `duration`, running every action that falls due, in order.
    /// - Parameter duration: How far to move; `.zero` runs what is due now.
    public func advance(by duration: Duration = .zero) {
        let target = state.withLock { $0.now + duration }
        while let item = takeNext(dueBy: target) {
            item.action()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs every scheduled action, including those scheduled meanwhile, moving the clock to
    /// each one's due time.
    public func run() {
        while let item = takeNext(dueBy: nil) {
            item.action()
        }
    }

    /// How many actions wait to run.
    public var pendingCount: Int {
        state.withLock { $0.items.count }
    }

    private func takeNext(dueBy limit: Duration?) -> Item? {
        state.withLock { state in
            guard let index = state.items.indices.min(by: { earlier(state.items[$0], state.items[$1]) }) else {
                return nil
            }
            let item = state.items[index]
            if let limit, item.dueTime > limit { return nil }
            state.items.remove(at: index)
            state.now = max(state.now, item.dueTime)
            return item
        }
    }

    private func earlier(_ a: Item, _ b: Item) -> Bool {
        (a.dueTime, a.order) < (b.dueTime, b.order)
    }
}
