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
/// When a run begins, one read per 500 rows finds which of its rows hold no register here:
/// such a row was never here, so its first insert in the run needs neither the row looked up
/// nor its later registers read. (Were it here after all, its `INSERT` breaks the primary key
/// and the batch goes again entry by entry.) The plan marks those inserts by log position, so
/// an applied entry costs one lookup of an integer, not hashes of its row's name.
struct HandJournalPlan {
    /// The log positions of the inserts planned, each with whether it is the first insert of
    /// a row that held no register here when its run began (known once the run begins).
    var positions: [Int64: Bool] = [:]
    /// Each planned run's inserts (log position and key, by table), by the log position of its
    /// first insert; taken out when the run begins.
    var runs: [Int64: [String: [(position: Int64, key: String)]]] = [:]
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
    func planHandJournaling(_ changes: [RowChange], ownOrigin: String) throws {
        var allowed: [String: Bool] = [:]
        var run = changes.startIndex..<changes.startIndex   // the run so far, by index in `changes`
        func closeRun() {
            guard run.count >= Self.handJournalRun else { return }
            var inserts: [String: [(position: Int64, key: String)]] = [:]
            for change in changes[run] {
                let remote = change.firstEntry
                handJournal.positions[remote.position] = false
                inserts[remote.entry.table, default: []].append((remote.position, remote.entry.key))
            }
            handJournal.runs[changes[run.lowerBound].firstEntry.position] = inserts
        }
        for index in changes.indices {
            let change = changes[index], remote = change.firstEntry
            if change.count == 1, remote.entry.operation == .insert, remote.origin != ownOrigin,
               remote.carried.isEmpty, remote.previousScope == nil, let table = tables.byName[remote.entry.table] {
                if allowed[table.name] == nil { allowed[table.name] = try Journal.insertsCanBeJournaledByHand(table, connection) }
                if allowed[table.name] == true {
                    run = run.lowerBound..<(index + 1)
                    continue
                }
            }
            closeRun()
            run = (index + 1)..<(index + 1)
        }
        closeRun()
    }

    /// Before each change of a batch: journaling by hand for an insert planned so, the
    /// triggers for anything else. The first insert of a run reads which of the run's rows
    /// hold no register here, and marks each such row's first insert in the run.
    func chooseCapture(for change: RowChange) throws {
        let position = change.firstEntry.position
        for (table, inserts) in handJournal.runs.removeValue(forKey: position) ?? [:] {
            let registered = try StampTable.rowsWithRegisters(table, among: inserts.map(\.key), connection)
            // A row inserted twice in the run is registered by its first insert.
            var seen: Set<String> = []
            for (position, key) in inserts where seen.insert(key).inserted && !registered.contains(key) {
                handJournal.positions[position] = true
            }
        }
        try handJournal.switcher.set(handJournal.positions[position] != nil, connection)
    }

    /// Whether `remote` is the first insert of a row that held no register here when its run
    /// began (``chooseCapture(for:)``).
    ///
    /// Such an insert leaves nothing in the batch's memory of rows (``rowIDs``): that
    /// memory holds only rows whose registers were raised, or it was cleared since, so it
    /// holds nothing of this row, and a later change of the row reads it from the database.
    func insertsUnregisteredRow(_ remote: RemoteEntry) -> Bool {
        handJournal.switcher.isOn && handJournal.positions[remote.position] == true
    }

    /// A planned insert that cannot be journaled by hand goes in with the triggers; after
    /// ``handFallbackLimit`` of those, the rest of the batch does too.
    func fallBackToTriggers() throws {
        handJournal.fallbacks += 1
        if handJournal.fallbacks > Self.handFallbackLimit {
            // Nothing more is journaled by hand: the later runs' rows need no register read.
            handJournal.positions.removeAll()
            handJournal.runs.removeAll()
        }
        try handJournal.switcher.set(false, connection)
    }

    /// The triggers again, and nothing more planned: after a batch's walk.
    func stopJournalingByHand() throws {
        handJournal.positions.removeAll()
        handJournal.runs.removeAll()
        try handJournal.switcher.set(false, connection)
    }
}
#endif
