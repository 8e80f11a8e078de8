#if SIGNALSTORE_SYNC
import SignalStore

/// Applying a run of inserts without the capture triggers.
///
/// Most of an applied insert's cost is the capture triggers' programs (the eviction staging,
/// the row's JSON built in SQL), not the row. When a batch holds a long run of inserts of new
/// rows from other replicas (one replica's big transaction) and nothing is pending here, the
/// applier turns the connection's persistent triggers off for the run and journals each row
/// itself (`Journal.journalInsert`): the same entries, published the same way, with the
/// values the applier already holds. Whatever else the batch writes goes through the triggers.
///
/// Switching the triggers makes SQLite prepare the connection's statements again, so only
/// runs of at least ``handJournalRun`` inserts are planned, and a batch whose planned inserts
/// keep needing the triggers after all (rows already here, values the columns convert) stops
/// planning after ``handFallbackLimit`` of them.
struct HandJournalPlan {
    /// The log positions of the inserts planned.
    var positions: Set<Int64> = []
    /// The connection's switch between the triggers and journaling by hand.
    var switcher = Journal.HandJournaling()
    /// How many planned inserts went in with the triggers after all.
    var fallbacks = 0
}

extension RemoteApplier {
    /// The shortest run of inserts worth switching the triggers off for.
    static let handJournalRun = 32
    /// How many planned inserts may need the triggers before the batch's plan is dropped.
    static let handFallbackLimit = 4

    /// Plans which inserts of `changes` (a batch's row changes, in order, applied by
    /// ``applyDirectly(_:)``) are journaled by hand: runs of at least ``handJournalRun``
    /// single-entry inserts from other replicas (`ownOrigin`'s are passed over), moving no row
    /// between scopes, into tables whose only triggers are the capture triggers.
    func planHandJournaling(_ changes: [[RemoteEntry]], ownOrigin: String) throws {
        var allowed: [String: Bool] = [:]
        var run: [Int64] = []
        func closeRun() {
            if run.count >= Self.handJournalRun { handJournal.positions.formUnion(run) }
            run.removeAll(keepingCapacity: true)
        }
        for change in changes {
            let remote = change[0]
            guard change.count == 1, remote.entry.operation == .insert, remote.origin != ownOrigin,
                  remote.carried.isEmpty, remote.previousScope == nil, let table = tables.byName[remote.entry.table]
            else { closeRun(); continue }
            if allowed[table.name] == nil { allowed[table.name] = try Journal.insertsCanBeJournaledByHand(table, connection) }
            if allowed[table.name] == true { run.append(remote.position) } else { closeRun() }
        }
        closeRun()
    }

    /// Before each change of a batch: journaling by hand for an insert planned so, the
    /// triggers for anything else.
    func chooseCapture(for change: [RemoteEntry]) throws {
        try handJournal.switcher.set(handJournal.positions.contains(change[0].position), connection)
    }

    /// A planned insert that cannot be journaled by hand goes in with the triggers; after
    /// ``handFallbackLimit`` of those, the rest of the batch does too.
    func fallBackToTriggers() throws {
        handJournal.fallbacks += 1
        if handJournal.fallbacks > Self.handFallbackLimit { handJournal.positions.removeAll() }
        try handJournal.switcher.set(false, connection)
    }

    /// The triggers again, and nothing more planned: after a batch's walk.
    func stopJournalingByHand() throws {
        handJournal.positions.removeAll()
        try handJournal.switcher.set(false, connection)
    }
}
#endif
