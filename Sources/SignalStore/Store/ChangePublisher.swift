/// Hands journal entries to the change feed in `seq` order.
///
/// Entries are queued while the database lock is held (so the queue order is the read order,
/// which is `seq` order) and sent after it is released. One thread at a time drains: a writer
/// whose entries are queued while another thread is draining returns at once, and the draining
/// thread delivers them next. With nobody else delivering, a writer delivers its own entries
/// before its write returns.
final class ChangePublisher: Sendable {
    private struct State {
        var pending: [Change] = []
        var isDraining = false
    }

    private let state = Locked(State())
    let feed: Broadcaster<Change, StoreError>

    init(feed: Broadcaster<Change, StoreError>) {
        self.feed = feed
    }

    /// Queues entries, in order. Call with the database lock held.
    func enqueue(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        state.withLock { $0.pending.append(contentsOf: changes) }
    }

    /// Sends everything queued, unless another thread is already doing so. Call with no lock held.
    func drain() {
        var batch = state.withLock { state -> [Change]? in
            guard !state.isDraining, !state.pending.isEmpty else { return nil }
            state.isDraining = true
            defer { state.pending = [] }
            return state.pending
        }
        while let changes = batch {
            for change in changes { feed.send(.value(change)) }
            batch = state.withLock { state -> [Change]? in
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
