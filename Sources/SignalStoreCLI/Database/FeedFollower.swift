import SignalStore

/// Follows a store's change feed until the context's stop request fires (SIGINT), the feed
/// fails, or `limit` entries were handled.
struct FeedFollower {
    let store: Store
    let since: Int64
    let limit: Int?
    let include: @Sendable (Change) -> Bool
    let handle: @Sendable (Change) -> Void

    /// Blocks until stopped. The entries already in the journal are read a page at a time (see
    /// ``JournalPages``), then new ones are followed live. A feed failure (entries pruned, store
    /// closed) is thrown.
    func run() throws(CLIError) {
        let stop = CommandContext.current.stop
        let history = try JournalPages.forEach(in: store, after: since, limit: limit, include: include, handle)
        if history.interrupted { return }
        let failure = Locked<StoreError?>(nil)
        let remaining = Locked((limit ?? Int.max) - history.count)
        if remaining.withLock({ $0 }) <= 0 { return }
        let include = include, handle = handle
        let subscription = store.changes(since: history.lastSeq).subscribe(
            onValue: { change in
                guard include(change), remaining.withLock({ $0 }) > 0 else { return }
                handle(change)
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { stop.fire() }
            },
            onFailure: { error in
                failure.withLock { $0 = error }
                stop.fire()
            },
            onCompleted: { stop.fire() }
        )
        stop.wait()
        subscription.dispose()
        if let error = failure.withLock({ $0 }) { throw CLIFailure.convert(error) }
    }
}
