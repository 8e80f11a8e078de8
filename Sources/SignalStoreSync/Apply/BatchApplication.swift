#if SIGNALSTORE_SYNC
import SignalStore

/// One downloaded batch applied inside the local write transaction the client opens: which
/// path it takes, the walk over its changes in log order, and settling this replica's pending
/// changes after it. The client calls ``run(_:)`` once per batch.
///
/// Two paths:
/// - **One savepoint for the batch**, when no change of this replica's can be in an entry's
///   way: nothing is pending here when the walk meets the first entry of another replica, or
///   no rule ties what is pending to the rows the batch changes (``BatchFootprint``). Long runs
///   of inserts may then be journaled by hand. Only a constraint that an entry breaks (rare)
///   rolls it back, and the batch goes the other way.
/// - **A savepoint per row change**, where a change that breaks a constraint goes to the
///   ``ConflictResolver``.
///
/// An entry this replica cannot read rolls the walk back; it goes again without it (and
/// without every other entry ``RemoteEntry/problem`` finds), and those are listed
/// (``UnreadableEntries``).
struct BatchApplication {
    let entries: [RemoteEntry]
    let tables: SyncedTables
    let connection: Connection
    /// Whether the entries are the history of a scope just gained: this replica's own entries
    /// among them are applied too, as its rows of that scope left with the scope.
    let history: Bool

    /// What applying a batch did.
    struct Outcome {
        /// Other replicas' entries.
        var downloaded = 0
        /// Entries that changed a row.
        var applied = 0
        /// Changes that lost to a constraint or could not be read: downloaded ones, and this
        /// replica's pending ones.
        var conflicts = 0
        /// Whether the client stamped local entries into the outbox in the same transaction.
        var stampedLocal = false
        /// Whether the batch listed or resolved a concurrent edit (``ConcurrentEdits``).
        var inboxChanged = false
    }

    /// Applies the batch and notes the clock its entries carry in `position`.
    func run(_ position: inout ReplicaState.Position) throws -> Outcome {
        var unreadable = UnreadableEntries(entries)
        while true {
            do {
                var walked = position
                var outcome = try connection.transaction { try apply(unreadable.readable, &walked) }
                outcome.conflicts += try unreadable.setAside(connection)
                position = walked
                return outcome
            } catch let error as UnreadableEntry {
                // Its savepoint rolled back whatever the walk wrote: again without it.
                try unreadable.leaveOut(error)
            }
        }
    }

    /// Applies `entries` (the batch's readable ones) with a fresh applier.
    private func apply(_ entries: [RemoteEntry], _ position: inout ReplicaState.Position) throws -> Outcome {
        let applier = RemoteApplier(tables: tables, connection: connection, origin: position.origin, clock: position.clock)
        let origin = history ? "" : position.origin
        let waiting = try Outbox.lastSeq(connection)
        // Only with changes pending can a replay follow: only then does it need the rows.
        applier.footprint = BatchFootprint(tracksRows: waiting != nil)
        let inOne = try nothingPendingAtFirstOthers(entries, origin: origin, waiting: waiting) || pendingApart(from: entries, origin: origin)
            ? try applier.inOneSavepoint { try walk(entries, origin: origin, applier, journalingByHand: true, applier.applyDirectly) }
            : nil
        let walked = try inOne ?? walk(entries, origin: origin, applier, applier.apply)
        if walked.downloaded > 0 { try applier.settlePending() }
        position.clock = max(position.clock, walked.clock, applier.clock)
        var outcome = Outcome()
        outcome.downloaded = walked.downloaded
        outcome.applied = walked.applied
        outcome.conflicts = applier.conflicts
        outcome.inboxChanged = try ConcurrentEdits.note(entries, connection)
        return outcome
    }

    /// Whether nothing is pending here once the walk through `entries` meets the first entry of
    /// another replica: the outbox is empty, or holds only entries this replica uploaded that
    /// the batch's first entries (its own, back from the log) confirm. That is the usual case
    /// after an upload: it caught up with the log first, so its entries come right after the
    /// cursor, and the batch starts with them.
    ///
    /// - Parameters:
    ///   - origin: This replica's origin id; `""` for a scope's history, whose entries of this
    ///     replica's are applied too (then only an empty outbox will do).
    ///   - waiting: The outbox's last seq; `nil` when it is empty.
    private func nothingPendingAtFirstOthers(_ entries: [RemoteEntry], origin: String, waiting: Int64?) -> Bool {
        guard let waiting else { return true }
        let ownFirst = entries.prefix { $0.origin == origin }
        guard let confirmed = ownFirst.last?.entry.originSeq else { return false }
        return confirmed >= waiting
    }

    /// Whether no rule ties this replica's pending changes to the rows the other replicas'
    /// entries of the batch change (``BatchFootprint``): replicas that each write their own
    /// rows. No pending change can then be in an entry's way. A batch only of this replica's
    /// own entries (a big transaction's pages coming back) meets nothing; more than
    /// ``RemoteApplier/replayLimit`` pending changes are not read for each batch.
    private func pendingApart(from entries: [RemoteEntry], origin: String) throws -> Bool {
        var footprint = BatchFootprint()
        for remote in entries where remote.origin != origin { footprint.note(remote, tables.byName[remote.entry.table]) }
        guard !footprint.tables.isEmpty else { return true }
        guard try Outbox.count(after: 0, limit: RemoteApplier.replayLimit + 1, connection) <= RemoteApplier.replayLimit else { return false }
        return try !footprint.mayMeet(Outbox.pendingRows(connection), tables)
    }

    /// What a walk through a batch did.
    private struct Walk {
        var downloaded = 0
        var applied = 0
        /// The latest clock among the entries.
        var clock = HybridLogicalClock(rawValue: 0)
    }

    /// Applies other replicas' entries in log order with `apply`; this replica's own entries,
    /// passed in log order, are no longer pending. An entry that moved its row to a scope not
    /// held here takes the row out instead.
    ///
    /// - Parameter journalingByHand: Whether long runs of inserts may go in without the capture
    ///   triggers (``RemoteApplier/planHandJournaling(_:ownOrigin:)``): only on the one-savepoint
    ///   path, when `apply` is ``RemoteApplier/applyDirectly(_:)``.
    private func walk(
        _ entries: [RemoteEntry], origin: String, _ applier: RemoteApplier, journalingByHand: Bool = false,
        _ apply: (RowChange) throws -> RemoteApplier.Outcome
    ) throws -> Walk {
        var walk = Walk()
        var ownPassed: Int64?
        let scopes = tables.scopes
        let changes = applier.rowChanges(entries)
        if journalingByHand { try applier.planHandJournaling(changes, ownOrigin: origin) }
        for change in changes {
            try applier.chooseCapture(for: change)
            let entry = change.firstEntry
            if entry.origin == origin {
                ownPassed = change.lastEntry.entry.originSeq
                continue
            }
            if let seq = ownPassed {
                try applier.resolver.confirmUploaded(through: seq)
                ownPassed = nil
            }
            walk.downloaded += change.count
            // A move carries its row's history, for a replica that gains the row. (A row change
            // of several entries never moves its row to another scope.)
            let arrived = try !scopes.leaves(entry) && applier.arrive(entry)
            let outcome = scopes.leaves(entry) ? try applier.leave(entry) : try apply(change)
            if arrived && outcome != .applied { walk.applied += 1 }
            if outcome == .applied { walk.applied += change.count }
            walk.clock = change.reduce(walk.clock) { max($0, $1.entry.clock) }
        }
        if let seq = ownPassed { try applier.resolver.confirmUploaded(through: seq) }
        return walk
    }
}
#endif
