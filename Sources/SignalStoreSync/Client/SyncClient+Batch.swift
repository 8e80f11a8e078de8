#if SIGNALSTORE_SYNC
import Foundation
import Signals
import SignalStore

/// Applying one downloaded batch: which path it takes, the walk over its changes, and the
/// local transaction whose journal entries are sync's echo.
extension SyncClient {
    /// Applies a downloaded batch in one local transaction with the new cursor. Local writes
    /// made before it get their stamps first, so the rule compares them with the batch; the
    /// batch's own journal entries are its echo: stamped past, never uploaded, and ringing no
    /// doorbell.
    ///
    /// - Parameter history: Whether the entries are the history of a scope just gained
    ///   (``ServerLog/history(of:after:through:limit:)``): this replica's own entries among them
    ///   are applied too, as its rows of that scope left with the scope.
    func apply(_ entries: [RemoteEntry], through: Int64, _ tables: SyncedTables, history: Bool = false) throws(SyncError) -> BatchOutcome {
        let othersChanges = { (position: ReplicaState.Position) in history || entries.contains { $0.origin != position.origin } }
        return try echoing(tables, stampingFirst: othersChanges) { connection, position, stampedLocal -> BatchOutcome in
            var unreadable = UnreadableEntries(entries)
            while true {
                do {
                    var walked = position
                    var outcome = try connection.transaction { try walk(unreadable.readable, history: history, tables, connection, &walked) }
                    outcome.conflicts += try unreadable.setAside(connection)
                    outcome.stampedLocal = stampedLocal
                    walked.serverCursor = max(walked.serverCursor, through)
                    position = walked
                    return outcome
                } catch let error as UnreadableEntry {
                    // Its savepoint rolled back whatever the walk wrote: again without it.
                    try unreadable.leaveOut(error)
                }
            }
        }
    }

    /// Applies a batch's readable entries (``apply(_:through:_:history:)``) with a fresh
    /// applier, and notes the clock they carry in `position`.
    private func walk(_ entries: [RemoteEntry], history: Bool, _ tables: SyncedTables, _ connection: Connection, _ position: inout ReplicaState.Position) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let applier = RemoteApplier(tables: tables, connection: connection, origin: position.origin, clock: position.clock)
        let origin = history ? "" : position.origin
        let waiting = try Outbox.lastSeq(connection)
        // Only with changes pending can a replay follow: only then does it need the rows.
        applier.footprint = BatchFootprint(tracksRows: waiting != nil)
        // With nothing pending here, or nothing a rule ties to the batch's rows, no change
        // of this replica's can be in an entry's way: the batch goes in one savepoint, and
        // only a constraint that an entry breaks (rare) makes it go again entry by entry,
        // each in a savepoint of its own.
        let walk = try nothingPendingAtFirstOthers(entries, origin: origin, waiting: waiting) || pendingApart(from: entries, origin: origin, tables, connection)
            ? try applier.inOneSavepoint { try applyInOrder(entries, origin: origin, tables.scopes, connection, applier, journalingByHand: true, applier.applyDirectly) }
            : nil
        let walked = try walk ?? applyInOrder(entries, origin: origin, tables.scopes, connection, applier, applier.apply)
        outcome.downloaded = walked.downloaded
        outcome.applied = walked.applied
        if outcome.downloaded > 0 { try applier.settlePending() }
        position.clock = max(position.clock, walked.clock, applier.clock)
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
    private func pendingApart(from entries: [RemoteEntry], origin: String, _ tables: SyncedTables, _ connection: Connection) throws -> Bool {
        var footprint = BatchFootprint()
        for remote in entries where remote.origin != origin { footprint.note(remote, tables.byName[remote.entry.table]) }
        guard !footprint.tables.isEmpty else { return true }
        guard try Outbox.count(after: 0, limit: RemoteApplier.replayLimit + 1, connection) <= RemoteApplier.replayLimit else { return false }
        return try !footprint.mayMeet(Outbox.pendingRows(connection), tables)
    }

    /// Runs `body` in one local write transaction whose journal entries are sync's echo:
    /// local writes made before it are stamped into the outbox first (`body` learns whether
    /// there were any), and what `body` writes is never uploaded and rings no doorbell.
    ///
    /// - Parameter stampingFirst: Whether `body` needs the local writes stamped first; `false`
    ///   for a batch only of this replica's own entries, which writes no row (the cursor passes
    ///   them and their uploads are confirmed): local writes not yet stamped stay so, and a big
    ///   transaction is still stamped a window at a time while its pages come back.
    func echoing<Result>(
        _ tables: SyncedTables, stampingFirst: (ReplicaState.Position) -> Bool = { _ in true },
        _ body: (Connection, inout ReplicaState.Position, _ stampedLocal: Bool) throws -> Result
    ) throws(SyncError) -> Result {
        let previousEcho = appliedThrough.withLock { $0 }
        do {
            return try local { connection -> Result in
                guard var position = try ReplicaState.read(connection) else { throw SyncError(store: .closed) }
                let before = position.stampedThrough
                let stamping = stampingFirst(position)
                if stamping { try Outbox.stampPending(tables, at: &position, connection) }
                let result = try body(connection, &position, position.stampedThrough > before)
                if stamping { position.stampedThrough = try Journal.highestSeq(connection) }
                try ReplicaState.save(position, connection)
                // Set before the commit publishes the echo to the doorbell's subscriber.
                appliedThrough.withLock { $0 = position.stampedThrough }
                return result
            }
        } catch {
            appliedThrough.withLock { $0 = previousEcho }
            throw error
        }
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
    ///   triggers (``RemoteApplier/planHandJournaling(_:ownOrigin:)``): only while nothing is
    ///   pending here, when `apply` is ``RemoteApplier/applyDirectly(_:)``.
    private func applyInOrder(
        _ entries: [RemoteEntry], origin: String, _ scopes: ReplicaScopes, _ connection: Connection,
        _ applier: RemoteApplier, journalingByHand: Bool = false, _ apply: (RowChange) throws -> RemoteApplier.Outcome
    ) throws -> Walk {
        var walk = Walk()
        var ownPassed: Int64?
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
