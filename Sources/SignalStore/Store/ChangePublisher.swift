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
        /// The storage of the last delivered items, emptied, that `pending` takes next: a commit
        /// queues its items without allocating a queue of its own.
        var spare: [Item] = []
        var isDraining = false

        /// Starts delivering what is pending, unless a thread already is; `[]` if there is
        /// nothing to deliver.
        mutating func startDraining() -> [Item] {
            guard !isDraining, !pending.isEmpty else { return [] }
            isDraining = true
            return takePending()
        }

        /// Takes back the storage of the items just delivered (`delivered`, emptied), and hands
        /// out what was queued meanwhile; `[]`, and draining ends, if nothing was.
        mutating func continueDraining(returning delivered: [Item]) -> [Item] {
            // Storage grown by a large commit is let go rather than kept for the next.
            if delivered.capacity <= 256 { spare = delivered }
            guard !pending.isEmpty else {
                isDraining = false
                return []
            }
            return takePending()
        }

        private mutating func takePending() -> [Item] {
            let taken = pending
            pending = spare
            spare = []
            return taken
        }
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
        enqueue { $0.append(contentsOf: items) }
    }

    /// Queues the items that `fill` appends to the queue, in place: a commit's items go into
    /// storage the queue keeps, with no array of their own. `fill` runs under the queue's
    /// lock, so it only appends. When to call it is as for the array of items.
    func enqueue(_ fill: (inout [Item]) -> Void) {
        state.withLock { fill(&$0.pending) }
    }

    /// Delivers everything queued, unless another thread is already doing so. Call with no lock
    /// held.
    func drain() {
        var items = state.withLock { $0.startDraining() }
        while !items.isEmpty {
            // Taken out one by one, from the end of the reversed storage: each item is moved to
            // `deliver` and destroyed once, where iterating copies it and emptying destroys it
            // again. The storage stays, emptied, for the next items.
            items.reverse()
            while let item = items.popLast() {
                deliver(item)
            }
            items = state.withLock { $0.continueDraining(returning: items) }
        }
    }

    private func deliver(_ item: Item) {
        switch item {
        case .change(let change): feed.send(.value(change))
        case .model(let notification): notification.deliver()
        case .notification(let notify): notify()
        case .commit(let notice): commits.send(.value(notice))
        case .batch(let changes): router.route(changes)
        case .resultsCompleted: router.complete()
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
