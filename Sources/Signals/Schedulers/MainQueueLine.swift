import Dispatch

/// A first-in, first-out line of items handed to `deliver` on the main queue, where the main
/// actor runs: at once when an item arrives on the main queue while none waits, otherwise after
/// the items before it, through the main queue.
///
/// This is the one place that decides between running inline and hopping to the main queue;
/// ``MainScheduler`` (items are actions) and `subscribeOnMain` (items are one subscription's
/// events) are built on it.
@usableFromInline
final class MainQueueLine<Item>: @unchecked Sendable {
    // @unchecked: the mutable state lives in `state`, guarded by its lock; `deliver` never
    // changes and is called on the main queue only, one item at a time.

    @usableFromInline
    struct State {
        @usableFromInline var waiting: ContiguousArray<Item> = []
        /// The first waiting item not delivered yet.
        @usableFromInline var next = 0
        /// Whether the main queue is delivering this line's items now.
        @usableFromInline var isRunning = false
        /// Whether a turn on the main queue has been asked for and has not started.
        @usableFromInline var turnRequested = false
        /// Set by `close()`: nothing more is delivered.
        @usableFromInline var isClosed = false

        @usableFromInline init() {}
    }

    /// What `enqueue` does once the lock is released.
    @usableFromInline
    enum Step {
        case deliverNow, requestTurn, nothing
    }

    @usableFromInline let state = Locked(State())
    @usableFromInline let deliver: @Sendable (Item) -> Void

    /// Creates a line whose items are handed to `deliver` on the main queue.
    @inlinable
    init(deliver: @escaping @Sendable (Item) -> Void) {
        self.deliver = deliver
    }

    /// Adds `item` to the line: delivers it before returning when called on the main queue with
    /// nothing waiting, else after the items before it.
    @inlinable
    func enqueue(_ item: Item) {
        let onMain = MainScheduler.isOnMainQueue
        let step = state.withLock { state -> Step in
            if state.isClosed { return .nothing }
            if onMain, !state.isRunning, state.next == state.waiting.count {
                state.isRunning = true
                return .deliverNow
            }
            state.waiting.append(item)
            // A main queue that is delivering takes this item in the same loop; a turn already
            // asked for takes it too.
            if state.isRunning || state.turnRequested { return .nothing }
            state.turnRequested = true
            return .requestTurn
        }
        switch step {
        case .deliverNow:
            deliver(item)
            deliverWaiting()
        case .requestTurn:
            requestTurn()
        case .nothing:
            break
        }
    }

    /// Drops the waiting items and delivers nothing more.
    @inlinable
    func close() {
        let dropped = state.withLock { state -> ContiguousArray<Item> in
            state.isClosed = true
            defer {
                state.waiting = []
                state.next = 0
            }
            return state.waiting
        }
        _ = dropped   // released here, outside the lock: items may own objects with deinits
    }

    /// Whether ``close()`` was called.
    @inlinable
    var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Asks the main queue for a turn to deliver the waiting items.
    @inlinable
    func requestTurn() {
        DispatchQueue.main.async { [self] in
            let start = state.withLock { state -> Bool in
                state.turnRequested = false
                guard !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if start { deliverWaiting() }
        }
    }

    /// Delivers waiting items one at a time, the lock released during each, until none waits.
    /// Runs on the main queue with `isRunning` set.
    @inlinable
    func deliverWaiting() {
        while let item = state.withLock({ state -> Item? in
            guard !state.isClosed, state.next < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: !state.isClosed)
                state.next = 0
                state.isRunning = false
                return nil
            }
            defer { state.next += 1 }
            return state.waiting[state.next]
        }) {
            deliver(item)
        }
    }
}
