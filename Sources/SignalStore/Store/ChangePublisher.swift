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
        /// A live object's notification, made by the model registry.
        case model(ModelNotification)
        /// Work that must run in line with the feed (a live result's first result for a new
        /// subscriber, `settle()`'s marker).
        case notification(@Sendable () -> Void)
        /// A commit (or several, read together from another connection) changed these tables;
        /// the journal is read through `seq`.
        case commit(CommitNotice)
        /// A published batch of journal entries, for live results (``ResultsRouter``).
        case batch([Change])
        /// The store closed: live results complete, after every batch queued before.
        case resultsCompleted
    }

    private struct State {
        var pending: [Item] = []
        var isDraining = false
    }

    private let state = Locked(State())
    let feed: Broadcaster<Change, StoreError>
    /// One notice per published batch, for listeners that need only its seq.
    let commits = Broadcaster<CommitNotice, Never>(replayLimit: 0)
    /// Takes every published batch of entries while a live result or aggregate listens: called
    /// directly, in line with the feed, as it is the only listener.
    let router: ResultsRouter

    init(feed: Broadcaster<Change, StoreError>, router: ResultsRouter) {
        self.feed = feed
        self.router = router
    }

    /// Whether anyone listens: feed subscribers, commit listeners or live results.
    var hasListeners: Bool {
        feed.subscriberCount > 0 || commits.subscriberCount > 0 || router.isListening
    }

    /// Queues items, in order. A commit's items are queued with the database lock held, so
    /// batches queue in commit order. Items that need only come after whatever is queued
    /// already (a new subscriber's refresh, `Store.settle()`'s marker, the close's completion
    /// of live results, queued once no connection is left) may be queued without it.
    func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        // Usually nothing is pending (the last commit was delivered): the items become the queue
        // as they are, without a copy.
        state.withLock { state in
            if state.pending.isEmpty { state.pending = items } else { state.pending.append(contentsOf: items) }
        }
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
                case .model(let notification): notification.deliver()
                case .notification(let notify): notify()
                case .commit(let notice): commits.send(.value(notice))
                case .batch(let changes): router.route(changes)
                case .resultsCompleted: router.complete()
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

/// That a published batch of journal entries was committed, through which seq: for the
/// listeners that need only that (sync's doorbell, the inspector's live stream).
struct CommitNotice: Sendable {
    let seq: Int64

    init(seq: Int64) {
        self.seq = seq
    }

    /// The notice of `changes`, in seq order; `nil` if there are none.
    init?(covering changes: [Change]) {
        guard let last = changes.last else { return nil }
        self.init(seq: last.seq)
    }
}
