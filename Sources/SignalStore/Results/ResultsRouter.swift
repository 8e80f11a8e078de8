/// Hands each published batch of journal entries to the live results it may concern, so a
/// commit costs the results it reaches, not every live result of the store.
///
/// - A result whose query reads other tables gets every batch.
/// - A result with a key (``ResultsKey``: the children of one parent) gets the entries of rows
///   that hold, or held, its key: the key is read from the entries (an insert's or delete's row,
///   an update of the key column's old and new value), and for rows whose entries do not say it,
///   from the database, once per batch for all keyed results of the table.
/// - Any other result gets its table's entries.
///
/// A batch that does not follow the entries a result has seen (entries pruned before the store
/// read them) reaches it whole, marked as such: what they changed is unknown. One batch at a time, on the thread that delivers commits.
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
    }

    private final class Listener: Sendable {
        let route: Route
        let receive: @Sendable (Routed) -> Void
        let complete: @Sendable () -> Void
        let marks = Locked(RouteMarks())

        init(route: Route, receive: @escaping @Sendable (Routed) -> Void, complete: @escaping @Sendable () -> Void) {
            self.route = route
            self.receive = receive
            self.complete = complete
        }
    }

    private struct State {
        var listeners: [Int: Listener] = [:]
        var nextID = 0
        var subscription: (any Disposable)?
        /// The last entry of the last batch routed; 0 before the first.
        var lastSeq: Int64 = 0
        var isCompleted = false
        /// The store whose batches these are, for reading keys; the results hold it weakly too.
        weak var store: Store?
    }

    private let state = Locked(State())
    private let batches: Broadcaster<[Change], Never>

    init(batches: Broadcaster<[Change], Never>) {
        self.batches = batches
    }

    /// Starts routing batches to a result; `nil` once the store's batches completed. Dispose the
    /// handle, or call its `stop()`, to stop.
    func listen(_ route: Route, of store: Store, receive: @escaping @Sendable (Routed) -> Void, complete: @escaping @Sendable () -> Void) -> RouteHandle? {
        let listener = Listener(route: route, receive: receive, complete: complete)
        let (id, subscribe) = state.withLock { state -> (Int?, Bool) in
            guard !state.isCompleted else { return (nil, false) }
            state.store = store
            state.nextID += 1
            state.listeners[state.nextID] = listener
            return (state.nextID, state.subscription == nil)
        }
        guard let id else { return nil }
        if subscribe { subscribeToBatches() }
        return RouteHandle(marks: listener.marks) { [weak self] in self?.stop(id) }
    }

    private func subscribeToBatches() {
        let signal = Signal<[Change], Never> { [batches] subscriber in batches.subscribe(subscriber) }
        let subscription = signal.subscribe(
            onValue: { [weak self] batch in self?.route(batch) },
            onCompleted: { [weak self] in self?.completeAll() }
        )
        let extra = state.withLock { state -> (any Disposable)? in
            guard state.subscription == nil, !state.listeners.isEmpty else { return subscription }
            state.subscription = subscription
            return nil
        }
        extra?.dispose()
    }

    private func stop(_ id: Int) {
        let idle = state.withLock { state -> (any Disposable)? in
            state.listeners[id] = nil
            guard state.listeners.isEmpty else { return nil }
            // Nobody listens: the store may skip reading the journal for results, so the next
            // listener starts without a gap check.
            defer { state.subscription = nil; state.lastSeq = 0 }
            return state.subscription
        }
        idle?.dispose()
    }

    private func completeAll() {
        let listeners = state.withLock { state in
            state.isCompleted = true
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.complete() }
    }

    // MARK: Routing

    private func route(_ batch: [Change]) {
        guard let first = batch.first, let last = batch.last else { return }
        let (listeners, routedThrough, store) = state.withLock { state in
            defer { state.lastSeq = max(state.lastSeq, last.seq) }
            return (Array(state.listeners.values), state.lastSeq, state.store)
        }
        let whole = Routed(changes: batch, through: last.seq, skippedEntries: false)
        var byTable: [String: [Change]] = [:]
        for change in batch { byTable[change.table.lowercased(), default: []].append(change) }
        var keyed: [String: [Listener]] = [:]
        for listener in listeners {
            let route = listener.route
            let marks = listener.marks.withLock { $0 }
            // The entries before this batch that the result has seen: those of the batches
            // routed since it started listening, or its own read's, whichever came later.
            let seen = max(routedThrough, marks.readThrough)
            if seen > 0, first.seq > seen + 1 {
                listener.receive(Routed(changes: batch, through: last.seq, skippedEntries: true))
                continue
            }
            if route.readsOtherTables { listener.receive(whole); continue }
            let table = route.table.lowercased()
            guard let changes = byTable[table] else { continue }
            if route.key == nil || marks.wantsEveryBatch {
                listener.receive(Routed(changes: changes, through: last.seq, skippedEntries: false))
            } else {
                keyed[table, default: []].append(listener)
            }
        }
        for (table, listeners) in keyed {
            deliver(byTable[table]!, to: listeners, through: last.seq, store)
        }
    }

    /// Gives each keyed listener of one table the entries of the rows that hold, or held, its key.
    private func deliver(_ changes: [Change], to listeners: [Listener], through: Int64, _ store: Store?) {
        var byColumn: [String: [Listener]] = [:]
        for listener in listeners { byColumn[listener.route.key!.column.lowercased(), default: []].append(listener) }
        for (column, listeners) in byColumn {
            let route = listeners[0].route
            guard let rows = RowKeys(changes, column: column, table: route.table, stableColumns: route.stableColumns, store: store) else {
                // A row moved to another rowid, or the key could not be read: every one of them.
                for listener in listeners { listener.receive(Routed(changes: changes, through: through, skippedEntries: false)) }
                continue
            }
            for listener in listeners {
                let reached = rows.rowIDs(holding: listener.route.key!.value)
                guard !reached.isEmpty else { continue }
                listener.receive(Routed(changes: changes.filter { reached.contains($0.rowID) }, through: through, skippedEntries: false))
            }
        }
    }
}

/// What the router knows of where a live result stands.
struct RouteMarks {
    /// The result waits for its query to run again, so every batch of its table reaches it,
    /// not only those of its key.
    var wantsEveryBatch = false
    /// The journal position its last whole read saw; 0 before one.
    var readThrough: Int64 = 0
}

/// A live result's place in the ``ResultsRouter``: it listens until ``stop()`` or until the
/// handle is released.
final class RouteHandle: Sendable {
    private let marks: Locked<RouteMarks>
    private let onDispose: Locked<(@Sendable () -> Void)?>

    init(marks: Locked<RouteMarks>, onDispose: @escaping @Sendable () -> Void) {
        self.marks = marks
        self.onDispose = Locked(onDispose)
    }

    /// Whether the result gets every batch of its table (its query must run again), not only
    /// those of its key.
    func setWantsEveryBatch(_ wants: Bool) {
        marks.withLock { $0.wantsEveryBatch = wants }
    }

    /// The result read its whole query through `seq`: entries missing after it are a gap.
    func setReadThrough(_ seq: Int64) {
        marks.withLock { $0.readThrough = max($0.readThrough, seq) }
    }

    func stop() {
        onDispose.withLock { action in defer { action = nil }; return action }?()
    }

    deinit { stop() }
}
