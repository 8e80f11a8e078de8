/// Hands journal entries to the change feed, and model notifications to their observers, in
/// `seq` order.
///
/// Items are queued while the database lock is held (so the queue order is commit order) and
/// delivered after it is released. One thread at a time drains: a writer whose items are queued
/// while another thread is draining returns at once, and the draining thread delivers them
/// next. With nobody else delivering, a writer delivers its own items before its write returns.
final class ChangePublisher: Sendable {
    /// One thing to deliver.
    enum Item {
        /// A journal entry for the feed.
        case change(Change)
        /// A model notification: Observation's `withMutation` and the property's signal.
        case notification(@Sendable () -> Void)
    }

    private struct State {
        var pending: [Item] = []
        var isDraining = false
    }

    private let state = Locked(State())
    let feed: Broadcaster<Change, StoreError>

    init(feed: Broadcaster<Change, StoreError>) {
        self.feed = feed
    }

    /// Queues items, in order. Call with the database lock held.
    func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        state.withLock { $0.pending.append(contentsOf: items) }
    }

    /// Delivers everything queued, unless another thread is already doing so. Call with no lock
    /// held.
    func drain() {
        var batch = state.withLock { state -> [Item]? in
            guard !state.isDraining, !state.pending.isEmpty else { return nil }
            state.isDraining = true
            defer { state.pending = [] }
            return state.pending
        }
        while let items = batch {
            for item in items {
                switch item {
                case .change(let change): feed.send(.value(change))
                case .notification(let notify): notify()
                }
            }
            batch = state.withLock { state -> [Item]? in
                guard !state.pending.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                defer { state.pending = [] }
                return state.pending
            }
        }
    }
}
