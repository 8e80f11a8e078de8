#if SIGNALSTORE_SYNC
import SignalStore

/// Replaying this replica's pending changes after a batch, in log order, as every other replica
/// will meet them.
extension RemoteApplier {
    /// How many changes may wait in the outbox for ``settlePending()`` to replay them after a
    /// batch; with more (a big transaction on its way up), it waits until they are uploaded.
    static let replayLimit: Int64 = 10_000

    /// After a batch: replays this replica's pending changes, one by one and in order, after
    /// the rows the log now makes, as every other replica will. Here each fitted the rows as
    /// they were when it was made, but a change of the batch can break one of them where a
    /// later pending change hides that (a row deleted here after a new one took its email).
    /// An entry that breaks a rule in the replay would be rejected everywhere else: it loses
    /// here too, and the replay's rows are kept. When every entry fits, the replay is rolled
    /// back: the rows are already what it makes.
    ///
    /// Skipped when it cannot find anything: one change pending (it was compared with each
    /// downloaded change already), a batch only of tables whose rows no rule ties to other
    /// rows (``SyncedTables/independent``), or pending changes that no rule ties to what the
    /// batch changed (``BatchFootprint``: replicas that each insert their own rows); and
    /// skipped while more than ``replayLimit`` changes wait, until they are uploaded.
    func settlePending() throws {
        guard !footprint.tables.isEmpty, !footprint.tables.isSubset(of: tables.independent) else { return }
        let waiting = try Outbox.count(after: 0, limit: Self.replayLimit + 1, connection)
        guard waiting > 1, waiting <= Self.replayLimit, try footprint.mayMeet(Outbox.pendingRows(connection), tables) else { return }
        struct NothingLost: Error {}
        do {
            try savepoint(rewritingRows: true) {
                try resolver.setAsideAllPending()
                var lost = 0
                var after: Int64 = 0
                while case let entries = try Outbox.pending(after: after, limit: Int(Outbox.window), connection), let last = entries.last {
                    for change in rowChanges(entries.map { RemoteEntry(position: 0, origin: resolver.origin, entry: $0) }) {
                        do {
                            _ = try savepoint { try write(change, fromServer: false) }
                        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                            for remote in change { try resolver.lose(remote.entry, rule: error.message) }
                            lost += change.count
                        }
                    }
                    after = last.originSeq
                }
                if lost == 0 { throw NothingLost() }
            }
        } catch is NothingLost {
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            // Setting the rows aside met a constraint (the server state does not record what a
            // foreign key action did): there is no replay to compare with.
        }
    }
}
#endif
