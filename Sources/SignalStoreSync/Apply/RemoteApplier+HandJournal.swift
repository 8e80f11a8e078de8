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
///
/// When a run begins, one read per 500 rows finds which of its rows hold no register here
/// (``unregistered``): such a row was never here, so its insert needs neither the row looked
/// up nor its later registers read. (Were it here after all, its `INSERT` breaks the primary
/// key and the batch goes again entry by entry.)
struct HandJournalPlan {
    /// The log positions of the inserts planned.
    var positions: Set<Int64> = []
    /// Each planned run's rows (keys by table), by the log position of its first insert;
    /// taken out when the run begins.
    var runs: [Int64: [String: [String]]] = [:]
    /// The rows of the runs begun so far that held no register here when their run began and
    /// have not been inserted since.
    var unregistered: Set<RemoteApplier.RowName> = []
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
        var run: [RemoteEntry] = []
        func closeRun() {
            if run.count >= Self.handJournalRun {
                handJournal.positions.formUnion(run.map(\.position))
                handJournal.runs[run[0].position] = Dictionary(grouping: run, by: \.entry.table).mapValues { $0.map(\.entry.key) }
            }
            run.removeAll(keepingCapacity: true)
        }
        for change in changes {
            let remote = change[0]
            guard change.count == 1, remote.entry.operation == .insert, remote.origin != ownOrigin,
                  remote.carried.isEmpty, remote.previousScope == nil, let table = tables.byName[remote.entry.table]
            else { closeRun(); continue }
            if allowed[table.name] == nil { allowed[table.name] = try Journal.insertsCanBeJournaledByHand(table, connection) }
            if allowed[table.name] == true { run.append(remote) } else { closeRun() }
        }
        closeRun()
    }

    /// Before each change of a batch: journaling by hand for an insert planned so, the
    /// triggers for anything else. The first insert of a run reads which of the run's rows
    /// hold no register here (``HandJournalPlan/unregistered``).
    func chooseCapture(for change: [RemoteEntry]) throws {
        let position = change[0].position
        for (table, keys) in handJournal.runs.removeValue(forKey: position) ?? [:] {
            let registered = try StampTable.rowsWithRegisters(table, among: keys, connection)
            for key in keys where !registered.contains(key) { handJournal.unregistered.insert(RowName(table: table, key: key)) }
        }
        try handJournal.switcher.set(handJournal.positions.contains(position), connection)
    }

    /// Whether `remote` inserts a row that held no register here when its run began, and takes
    /// it out of ``HandJournalPlan/unregistered``: the row is registered from now on.
    func insertsUnregisteredRow(_ remote: RemoteEntry) -> Bool {
        handJournal.switcher.isOn && remote.entry.operation == .insert
            && handJournal.unregistered.remove(RowName(table: remote.entry.table, key: remote.entry.key)) != nil
    }

    /// A planned insert that cannot be journaled by hand goes in with the triggers; after
    /// ``handFallbackLimit`` of those, the rest of the batch does too.
    func fallBackToTriggers() throws {
        handJournal.fallbacks += 1
        if handJournal.fallbacks > Self.handFallbackLimit {
            // Nothing more is journaled by hand: the later runs' rows need no register read.
            handJournal.positions.removeAll()
            handJournal.runs.removeAll()
            handJournal.unregistered.removeAll()
        }
        try handJournal.switcher.set(false, connection)
    }

    /// The triggers again, and nothing more planned: after a batch's walk.
    func stopJournalingByHand() throws {
        handJournal.positions.removeAll()
        handJournal.runs.removeAll()
        handJournal.unregistered.removeAll()
        try handJournal.switcher.set(false, connection)
    }
}
#endif
