#if SIGNALSTORE_SYNC
import SignalStore

/// Applying one downloaded batch in the local transaction whose journal entries are sync's
/// echo.
extension SyncClient {
    /// Applies a downloaded batch (``BatchApplication``) in one local transaction with the new
    /// cursor. Local writes made before it get their stamps first, so the rule compares them
    /// with the batch; the batch's own journal entries are its echo: stamped past, never
    /// uploaded, and ringing no doorbell.
    ///
    /// - Parameter history: Whether the entries are the history of a scope just gained
    ///   (``ServerLog/history(of:after:through:limit:)``): this replica's own entries among them
    ///   are applied too, as its rows of that scope left with the scope.
    func apply(_ entries: [RemoteEntry], through: Int64, _ tables: SyncedTables, history: Bool = false) throws(SyncError) -> BatchApplication.Outcome {
        let othersChanges = { (position: ReplicaState.Position) in history || entries.contains { $0.origin != position.origin } }
        return try echoing(tables, stampingFirst: othersChanges) { connection, position, stampedLocal in
            let batch = BatchApplication(entries: entries, tables: tables, connection: connection, history: history)
            var outcome = try batch.run(&position)
            outcome.stampedLocal = stampedLocal
            position.serverCursor = max(position.serverCursor, through)
            return outcome
        }
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
}
#endif
