/// Publishing a commit, in one place: reading what was committed after the last entry seen (as
/// far as somebody listens), applying it to the live objects of the identity map
/// (``ModelRegistry``), and queueing the models' notifications, the feed's entries, the commit
/// notice and the batch for live results on the ``ChangePublisher``, which delivers them in
/// commit order once the database lock is released.
///
/// Every path that commits comes here: a write transaction, a model's one-statement set, the
/// outermost ``Store/transaction(_:)``, and the poller's check for other connections' commits.
/// Call its methods with the writer's lock held.
struct CommitPublisher: Sendable {
    /// The live objects, behind their own lock (taken after the writer's when both are needed).
    let registry: Locked<ModelRegistry>
    /// Delivers what is queued, in order, with no lock held.
    let delivery: ChangePublisher

    /// Reads journal entries after the last one seen, applies them to live models and queues
    /// them for the feed. With nobody listening (no feed subscriber, no live model), only notes
    /// that entries may have been skipped: reading them would be wasted.
    func publishNew(_ connection: Connection) throws {
        publish(try read(connection))
    }

    /// What was committed after the last entry seen, read only as far as somebody needs it.
    enum NewChanges {
        /// Nobody listens: nothing was read.
        case unread
        /// The entries, for live models and for the `listeners` there were when they were read
        /// (a feed subscriber attaching later starts after them).
        case entries([Change], listeners: Listeners)
        /// Only commit notices are listened to (sync's doorbell, the inspector's live stream):
        /// through which seq, read without loading the entries, so a commit of a million rows
        /// costs no memory here.
        case summary(CommitNotice?)
    }

    /// Who listens besides the live objects, read once per commit.
    struct Listeners {
        /// The change feed's subscribers.
        var feed: Bool
        /// Live results (they take the batch).
        var results: Bool
        /// Commit notices (sync's doorbell, the inspector's live stream).
        var notices: Bool
    }

    /// The journal entries after the last one seen, as far as the listeners need them.
    ///
    /// `collected` are the entries a statement committed alone was handed as it wrote them
    /// (``Store/writeOneStatement(_:)``). They are used instead of reading the journal when they are
    /// all of it since the last entry seen: nothing was skipped while nobody listened, and they
    /// follow that entry without a gap (no other connection committed in between). Such a
    /// statement is a model's property set, so a live object always listens and only the
    /// entries' branch uses them.
    func read(_ connection: Connection, collected: [Change]? = nil) throws -> NewChanges {
        let listeners = Listeners(
            feed: delivery.feed.subscriberCount > 0,
            results: delivery.router.isListening,
            notices: delivery.commits.subscriberCount > 0
        )
        // Handed entries come from a model's set, whose object is live; otherwise whether any
        // object is live is asked only when no other listener settles it (it walks the map).
        let asksLive = !listeners.feed && !listeners.results && collected == nil
        let position = registry.withLock { registry -> (seq: Int64, isBehind: Bool, live: Bool) in
            (registry.lastSeenSeq, registry.isBehind, asksLive ? registry.mayHaveLiveObjects : true)
        }
        let handed = position.isBehind ? nil : collected.flatMap { Self.entries($0, following: position.seq) }
        if listeners.feed || position.live || listeners.results {
            let entries = try handed ?? Journal.entries(after: position.isBehind ? try catchUp(connection) : position.seq, connection)
            return .entries(entries, listeners: listeners)
        }
        guard listeners.notices else { return .unread }
        return .summary(try Journal.lastSeq(after: position.seq, connection).map(CommitNotice.init(seq:)))
    }

    /// `entries` if they come right after `seq`, one seq each, without a gap; otherwise `nil`.
    private static func entries(_ entries: [Change], following seq: Int64) -> [Change]? {
        for (offset, entry) in entries.enumerated() where entry.seq != seq + 1 + Int64(offset) {
            return nil
        }
        return entries
    }

    /// Applies committed entries to live models and queues notifications and feed entries, in
    /// commit order. Unread entries mark the read position stale instead, as does a summary
    /// (no live model saw its entries). Call with the writer's lock held.
    func publish(_ changes: NewChanges) {
        switch changes {
        case .unread:
            registry.withLock { $0.isBehind = true }
        case .summary(let notice):
            guard let notice else { return }
            registry.withLock { registry in
                registry.lastSeenSeq = notice.seq
                registry.isBehind = true
            }
            delivery.enqueue([.commit(notice)])
        case .entries(let changes, let listeners):
            guard !changes.isEmpty else { return }
            var notifications = registry.apply(changes)
            delivery.enqueue { items in
                notifications.moveEach { items.append(.model($0)) }
                if listeners.feed {
                    for change in changes { items.append(.change(change)) }
                }
                if listeners.notices, let notice = CommitNotice(covering: changes) {
                    items.append(.commit(notice))
                }
                if listeners.results { items.append(.batch(changes)) }
            }
        }
    }

    /// Moves past entries that were skipped while nobody was listening (unless a reader, filing
    /// an object meanwhile, set where reading resumes).
    /// - Returns: The seq reading resumes after.
    func catchUp(_ connection: Connection) throws -> Int64 {
        guard registry.withLock({ $0.isBehind }) else { return registry.withLock { $0.lastSeenSeq } }
        let highest = try Journal.highestSeq(connection)
        return registry.withLock { registry in
            if registry.isBehind {
                registry.lastSeenSeq = highest
                registry.isBehind = false
            }
            return registry.lastSeenSeq
        }
    }
}
