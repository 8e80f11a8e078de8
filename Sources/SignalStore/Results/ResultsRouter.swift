import Synchronization

/// Hands each published batch of journal entries to the live results it may concern, so a
/// commit costs the results it reaches, not every live result of the store.
///
/// - A result whose query reads other tables gets every batch; so does one that reads parents
///   through `@Parent` links, and picks its tables' entries out of it.
/// - A result with a key (``ResultsKey``: the children of one parent, `\.status == "open"`) gets the entries of rows
///   that hold, or held, its key: the key is read from the entries (an insert's or delete's row,
///   an update of the key column's old and new value), and for rows whose entries do not say it,
///   from the database, once per batch for all keyed results of the table.
/// - Any other result gets its table's entries.
///
/// A batch that does not follow the entries a result has seen (entries pruned before the store
/// read them) reaches it whole, marked as such: what they changed is unknown. The store's
/// ``ChangePublisher`` hands it each batch in order, one at a time, on the thread that delivers
/// commits, while ``isListening``.
final class ResultsRouter: Sendable {
    /// A batch as one result gets it: the entries that may concern it, in order.
    struct Routed {
        let changes: [Change]
        /// The journal position the whole batch ends at.
        let through: Int64
        /// Entries before this batch were skipped: the result must run its query again.
        let skippedEntries: Bool
    }

    /// Where a result listens.
    struct Route: Sendable {
        let table: String
        let key: ResultsKey?
        let readsOtherTables: Bool
        /// The model's columns other than its primary key, lowercased: an update of any other
        /// column may move a row to another rowid.
        let stableColumns: Set<String>
        /// The parents' tables the result reads through `@Parent` links, lowercased: it gets
        /// every batch and finds its entries of these tables in it.
        var parentTables: Set<String> = []
    }

    /// A listening result: where it listens and what it is handed.
    final class Listener: Sendable {
        let route: Route
        let receive: @Sendable (Routed) -> Void
        let complete: @Sendable () -> Void

        init(route: Route, receive: @escaping @Sendable (Routed) -> Void, complete: @escaping @Sendable () -> Void) {
            self.route = route
            self.receive = receive
            self.complete = complete
        }
    }

    private struct State {
        var index = RouteIndex()
        var nextID = 0
        /// The last entry of the last batch routed; 0 before the first.
        var lastSeq: Int64 = 0
        var isCompleted = false
        /// The store whose batches these are, for reading keys; the results hold it weakly too.
        weak var store: Store?
    }

    private let state = Locked(State())
    /// Whether a result listens: set under `state`'s lock, read without it (asked on every
    /// commit, to know whether to hand over its entries).
    private let listening = Atomic<Bool>(false)

    /// Whether a result listens: the store hands the router its batches only then.
    var isListening: Bool {
        listening.load(ordering: .acquiring)
    }

    /// Starts routing batches to a result; `nil` once the store's batches completed. Release the
    /// handle, or call its `stop()`, to stop.
    func listen(_ route: Route, of store: Store, receive: @escaping @Sendable (Routed) -> Void, complete: @escaping @Sendable () -> Void) -> RouteHandle? {
        let listener = Listener(route: route, receive: receive, complete: complete)
        let id = state.withLock { state -> Int? in
            guard !state.isCompleted else { return nil }
            state.store = store
            state.nextID += 1
            state.index.insert(listener, id: state.nextID)
            listening.store(true, ordering: .releasing)
            return state.nextID
        }
        return id.map { RouteHandle(id: $0, router: self) }
    }

    /// The result `id` waits for its query to run again (every batch of its table reaches it),
    /// or no longer does.
    func setWaiting(_ id: Int, _ waiting: Bool) {
        state.withLock { $0.index.setWaiting(id, waiting) }
    }

    /// The result `id` read its whole query through `seq`.
    func setReadThrough(_ id: Int, _ seq: Int64) {
        state.withLock { $0.index.setReadThrough(id, seq) }
    }

    /// Stops routing batches to the result `id`.
    func stop(_ id: Int) {
        state.withLock { state in
            state.index.remove(id)
            guard state.index.isEmpty else { return }
            // Nobody listens: the store may skip reading the journal for results, so the next
            // listener starts without a gap check.
            state.lastSeq = 0
            listening.store(false, ordering: .releasing)
        }
    }

    /// The store closed: every result completes, and none listens again.
    func complete() {
        let listeners = state.withLock { state in
            state.isCompleted = true
            defer { state.index = RouteIndex() }
            listening.store(false, ordering: .releasing)
            return state.index.all.map(\.listener)
        }
        for listener in listeners { listener.complete() }
    }

    // MARK: Routing

    /// Hands `batch`, the entries of one or more commits in order, to the results it may concern.
    func route(_ batch: [Change]) {
        guard let first = batch.first, let last = batch.last else { return }
        let (tables, entries) = Self.byTable(batch)
        let (plan, store) = state.withLock { state in
            defer { state.lastSeq = max(state.lastSeq, last.seq) }
            return (state.index.plan(tables: tables, first: first.seq, routedThrough: state.lastSeq), state.store)
        }
        for listener in plan.skipped { listener.receive(Routed(changes: batch, through: last.seq, skippedEntries: true)) }
        let whole = Routed(changes: batch, through: last.seq, skippedEntries: false)
        for listener in plan.everyBatch { listener.receive(whole) }
        for offset in 0..<tables.count {
            let reached = plan.tables[offset], changes = entries[offset]
            if !reached.tableWide.isEmpty {
                let routed = Routed(changes: changes, through: last.seq, skippedEntries: false)
                for listener in reached.tableWide { listener.receive(routed) }
            }
            guard !reached.keyed.isEmpty else { continue }
            // The table as the entries name it: SQL finds a table by its name in any case.
            let keyColumns = reached.keyed.count == 1 ? Array(reached.keyed.keys) : reached.keyed.keys.sorted()
            let reads = KeyColumnReads(table: changes[0].table, columns: keyColumns, store: store)
            for (column, byValue) in reached.keyed {
                deliver(changes, column: column, to: byValue, through: last.seq, reads)
            }
        }
    }

    /// The tables of a batch's entries (lowercased, each once, in the order they first appear),
    /// and each one's entries in order.
    private static func byTable(_ batch: [Change]) -> (tables: [String], entries: [[Change]]) {
        let table = batch[0].table
        if batch.allSatisfy({ $0.table == table }) {
            return ([table.lowercased()], [batch])   // the usual batch: one table, lowercased once
        }
        var tables: [String] = []
        var entries: [[Change]] = []
        var offsets = [String: Int]()
        for change in batch {
            let table = change.table.lowercased()
            if let offset = offsets[table] {
                entries[offset].append(change)
            } else {
                offsets[table] = tables.count
                tables.append(table)
                entries.append([change])
            }
        }
        return (tables, entries)
    }

    /// The route of one of `listeners` (they share a table, hence its stable columns): a loop,
    /// which a debug build runs at a tenth of the cost of `first` on a dictionary.
    private static func anyRoute(_ listeners: [SQLiteValue: [Int: Listener]]) -> Route? {
        for byID in listeners.values {
            for listener in byID.values { return listener.route }
        }
        return nil
    }

    /// Gives the keyed listeners of one table and key column the entries of the rows that hold,
    /// or held, each one's key.
    private func deliver(_ changes: [Change], column: String, to byValue: [SQLiteValue: [Int: Listener]], through: Int64, _ reads: KeyColumnReads) {
        guard let route = Self.anyRoute(byValue) else { return }
        if let keys = RowKeys.keysOfOneUpdate(changes, column: column) {
            // A model's set: every key the row held reaches the whole batch, with no sets built.
            let routed = Routed(changes: changes, through: through, skippedEntries: false)
            for key in keys {
                guard let listeners = byValue[key] else { continue }
                for listener in listeners.values { listener.receive(routed) }
            }
            return
        }
        guard let rows = RowKeys(changes, column: column, stableColumns: route.stableColumns, reads: reads) else {
            // A row moved to another rowid, or the key could not be read: every one of them.
            let routed = Routed(changes: changes, through: through, skippedEntries: false)
            for listeners in byValue.values { for listener in listeners.values { listener.receive(routed) } }
            return
        }
        for (key, reached) in rows.rowsByKey {
            guard let listeners = byValue[key] else { continue }
            let routed = Routed(changes: changes.filter { reached.contains($0.rowID) }, through: through, skippedEntries: false)
            for listener in listeners.values { listener.receive(routed) }
        }
    }
}

/// A live result's place in the ``ResultsRouter``: it listens until ``stop()`` or until the
/// handle is released.
final class RouteHandle: Sendable {
    private let id: Int
    private weak let router: ResultsRouter?
    private let isStopped = Locked(false)

    init(id: Int, router: ResultsRouter) {
        self.id = id
        self.router = router
    }

    /// Whether the result gets every batch of its table (its query must run again), not only
    /// those of its key.
    func setWantsEveryBatch(_ wants: Bool) {
        router?.setWaiting(id, wants)
    }

    /// The result read its whole query through `seq`: entries missing after it are a gap.
    func setReadThrough(_ seq: Int64) {
        router?.setReadThrough(id, seq)
    }

    func stop() {
        guard !isStopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
        router?.stop(id)
    }

    deinit { stop() }
}
