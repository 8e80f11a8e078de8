extension Store {
    /// ``StoreOperations/changes(since:)``.
    func changeFeed(since: Int64?) -> Signal<Change, StoreError> {
        Signal { [self] downstream in
            let attached: (replay: [Change], subscription: any Disposable)
            do {
                attached = try attach(downstream, since: since)
            } catch {
                downstream.fail(StoreError(error))
                return AnyDisposable()
            }
            if let first = attached.replay.first {
                downstream.deliverClaimed(.value(first))
            }
            return attached.subscription
        }
    }

    /// Under the database lock: reads the replay, claims its delivery in `downstream`, and
    /// attaches a live subscription that skips what the replay covers. Holding the lock keeps
    /// the poller and writers from reading newer entries in between, so nothing is missed.
    private func attach(
        _ downstream: Subscriber<Change, StoreError>,
        since: Int64?
    ) throws -> (replay: [Change], subscription: any Disposable) {
        try database.withLock { state in
            guard let connection = state.connection else { throw StoreError.closed }
            var covered = try commitPublisher.catchUp(connection)
            var replay: [Change] = []
            if let since {
                replay = try Journal.entriesWithoutGap(after: since, connection)
                covered = max(covered, replay.last?.seq ?? since)
            }
            let horizon = covered
            let live = Subscriber<Change, StoreError>(sharing: downstream) { event in
                if case .value(let change) = event, change.seq <= horizon { return }
                downstream.forward(event)
            }
            let claimed = replay.first.map { downstream.claim(first: .value($0), rest: replay.dropFirst().map { .value($0) }) } ?? false
            let subscription = publisher.feed.subscribe(live)
            return (claimed ? replay : [], subscription)
        }
    }

    /// The feed for the durable consumer `consumer`: the entries after the seq it last
    /// acknowledged (stored in the database, so a restarted process resumes where it stopped),
    /// then every new one, in `seq` order. A new consumer is registered on subscribe,
    /// acknowledged through the prune horizon, so it gets every entry still kept. Delivery is at
    /// least once: entries after the last acknowledgment come again after a restart; pruning
    /// never deletes them (``pruneChanges(through:)`` fails instead).
    ///
    /// ```swift
    /// func forward(_ store: Store, to upload: @escaping @Sendable (Change) throws -> Void) -> any Disposable {
    ///     store.changes(consumer: "uploader").subscribe(onValue: { change in
    ///         do {
    ///             try upload(change)
    ///             try store.acknowledge(through: change.seq, consumer: "uploader")
    ///         } catch {
    ///             print(error)   // not acknowledged: delivered again next time
    ///         }
    ///     })
    /// }
    /// ```
    /// - Parameter consumer: A name that identifies the consumer across restarts (1 to 200
    ///   characters).
    public func changes(consumer: String) -> Signal<Change, StoreError> {
        Signal<Change, StoreError>.deferred { [self] in
            do throws(StoreError) {
                return changes(since: try registerConsumer(consumer))
            } catch {
                return .fail(error)
            }
        }
    }

    /// Records that `consumer` has processed the entries through `seq`; it resumes after it.
    /// Acknowledging never moves back.
    /// - Throws: ``StoreError/unknownConsumer(_:)`` if `consumer` never subscribed,
    ///   ``StoreError/invalidArgument(_:)`` past the last entry.
    public func acknowledge(through seq: Int64, consumer: String) throws(StoreError) {
        try write { _, connection in try Journal.acknowledge(through: seq, consumer: consumer, connection) }
    }

    /// The durable consumers and what each has acknowledged.
    public var consumers: [FeedConsumer] {
        get throws(StoreError) {
            try readJournal { connection in try Journal.consumers(connection) }
        }
    }

    /// Removes a durable consumer: its unacknowledged entries no longer hold back pruning.
    public func removeConsumer(_ name: String) throws(StoreError) {
        try write { _, connection in try Journal.remove(consumer: name, connection) }
    }

    private func registerConsumer(_ name: String) throws(StoreError) -> Int64 {
        guard !name.isEmpty, name.count <= 200 else {
            throw .invalidArgument("a consumer's name must have 1 to 200 characters, not \(name.count)")
        }
        return try write { _, connection in try Journal.register(consumer: name, connection) }
    }

    /// Deletes the journal entries up to and including `seq`. Resuming the feed from before
    /// `seq` then fails with ``StoreError/changeFeedGap(since:prunedThrough:)`` instead of
    /// silently skipping entries.
    /// - Parameter seq: The last entry to delete. A seq beyond ``lastChangeSeq`` prunes through
    ///   ``lastChangeSeq``: entries not yet written are never marked as pruned.
    /// - Returns: The number of entries deleted.
    /// - Throws: ``StoreError/consumerBehind(consumer:acknowledgedSeq:)``, deleting nothing,
    ///   if a durable consumer has not acknowledged an entry through `seq`.
    @discardableResult
    public func pruneChanges(through seq: Int64) throws(StoreError) -> Int {
        try pruneChanges(through: seq) { _ in }
    }

    /// ``pruneChanges(through:)``, calling `progress` with the number of entries deleted so far
    /// as a large prune goes (it is still one transaction).
    package func pruneChanges(through seq: Int64, progress: (Int) -> Void) throws(StoreError) -> Int {
        try write { _, connection in try Journal.prune(through: seq, connection, progress: progress) }
    }

    /// Reads the journal in one snapshot.
    func readJournal<Result>(_ body: (Connection) throws -> Result) throws(StoreError) -> Result {
        do {
            return try readConnection(body)
        } catch {
            throw StoreError(error)
        }
    }

    /// The journal entries after `seq`, at most `limit` of them, read directly (no subscription).
    /// - Throws: ``StoreError/changeFeedGap(since:prunedThrough:)`` if entries after `seq` were
    ///   pruned.
    package func journalEntries(after seq: Int64, limit: Int? = nil) throws(StoreError) -> [Change] {
        try readJournal { connection in try Journal.entriesWithoutGap(after: seq, limit: limit, connection) }
    }

    /// The newest journal entries at or before `seq`, newest first, at most `limit`, only of
    /// `table` and `operation` when given (a feed viewer's page, read backwards), with values
    /// cut by SQLite at `valuesCutAt` when given (for display).
    package func journalEntries(
        through seq: Int64, limit: Int, table: String? = nil, operation: Change.Operation? = nil, valuesCutAt: Int? = nil
    ) throws(StoreError) -> [Change] {
        try readJournal { connection in
            try Journal.entries(through: seq, limit: limit, table: table, operation: operation, valuesCutAt: valuesCutAt, connection)
        }
    }

    /// The entries before `seq` that go on a run of entries written at most `closeness`
    /// seconds apart, ending at `seq`, counted (see ``Journal/run(before:closeness:window:table:operation:_:)``).
    package func journalRun(
        before seq: Int64, closeness: Double, window: Int64, table: String? = nil, operation: Change.Operation? = nil
    ) throws(StoreError) -> JournalRun? {
        try readJournal { connection in
            try Journal.run(before: seq, closeness: closeness, window: window, table: table, operation: operation, connection)
        }
    }

    /// The number of journal entries kept, and the prune horizon.
    package func journalSummary() throws(StoreError) -> (entries: Int64, prunedThrough: Int64) {
        try readJournal { connection in (try Journal.entryCount(connection), try Journal.prunedThrough(connection)) }
    }
}

extension Store {
    /// The last seq of every commit (by any writer; several commits of other connections may
    /// come as one), for a listener that needs to know only that something was committed.
    /// Unlike ``changes(since:)``, it never makes the store read the entries: listening to it
    /// alone costs no memory for a commit of any size.
    package func committedSeqs() -> Signal<Int64, Never> {
        Signal { [publisher] downstream in
            publisher.commits.subscribe(Subscriber(sharing: downstream) { event in
                switch event {
                case .value(let notice): downstream.send(notice.seq)
                case .completed, .failed: downstream.complete()
                }
            })
        }
    }
}
