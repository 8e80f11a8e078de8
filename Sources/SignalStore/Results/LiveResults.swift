import Observation

/// A query result that changes by row: the live instances matching a filter, in order, kept
/// current from the change journal after every commit, by every writer.
///
/// ```swift
/// func openOrders(_ store: Store) -> LiveResults<Order> {
///     store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
/// }
/// ```
///
/// A `LiveResults` is a `RandomAccessCollection` of the objects, `Observable` (its count and
/// membership are tracked by `withObservationTracking`, and by SwiftUI), and `Sendable`.
/// ``changes`` sends the whole result once, then one ``ResultsChange/update(_:deletions:insertions:modifications:)``
/// per commit that changes it, with the indices a list view animates.
///
/// ## How it stays current
/// A commit's journal entries name the rows it changed. For those rows only, the result reads
/// whether they match the filter now and their sort values (one query by rowid, on a read-only
/// connection, whatever indexes the table has), and places them by binary search, comparing
/// exactly as SQLite's `ORDER BY` does (NULL, numbers, text by its collation, blobs). The cost
/// is that of the rows that changed, not of the result's size, whoever wrote them: this store,
/// another process, the `sqlite3` shell.
///
/// A commit reaches only the results it may change, so many live results cost what a commit
/// changes, not how many there are:
/// - A result of a typed filter that requires a key (`\.customerID == 7` or `\.status == "open"`,
///   alone or joined with `&&`, and every `@Children` list) is reached only by commits to rows
///   that hold, or held, that key: a commit to one customer's orders reaches no other customer's
///   list, and a thousand lists of a thousand statuses cost a commit what one does.
/// - A result that filters or orders by a parent (``ModelFilter/parent(_:_:)``,
///   ``ModelOrdering/parent(_:_:)``) places again the children of the parent rows a commit
///   changed in a column it reads there: read again, or, when only its order reads that
///   parent and it has no window, with their keys from the parent's new values.
/// - A typed filter's result reads nothing for a change of a column its filter and order do not
///   read (a member then reports a modification), nor for a delete. A result of an SQL fragment
///   reads the changed rows of its table.
///
/// A window (`limit:`) keeps the first rows of its ordering: a row that leaves is replaced by the
/// next one, read from the table in the same snapshot; a row that enters pushes the last out.
///
/// Two kinds of query run again in full instead, once per commit that may change them:
/// - a filter or ordering that reads another table (a fragment with a subquery), after every
///   commit, since a change there changes this result without touching its rows;
/// - an ordering that is not a list of the model's columns (an expression, `NULLS FIRST`, a
///   collation of the app's own), after every commit that touches the table.
///
/// ## Memory
/// The result holds each member's rowid and sort values. An object is loaded when it is first
/// read (by subscript, iteration or ``changes``) and then kept while the result lives, so a
/// long list that shows a screenful holds a screenful of objects.
///
/// ## Threads
/// The result changes on the thread that delivers commits (the writer's, or the store's poller
/// for other processes' commits), after the objects took their new values. Reading it from
/// another thread is safe; for a stable view while iterating, `for … in` walks a snapshot, and
/// ``objects`` returns one.
public final class LiveResults<Model: PersistentModel>: RandomAccessCollection, Observable, Sendable {
    /// The live instances.
    public typealias Element = Model
    /// Positions in the current result.
    public typealias Index = Int
    /// Iteration walks a snapshot of the objects, taken when it starts.
    public typealias Iterator = IndexingIterator<[Model]>

    weak let store: Store?
    let query: ResultsQuery<Model>
    /// What a commit's entries tell of the rows it changed.
    private let membership: JournalMembership
    let state: Locked<ResultsState<Model>>
    /// Every step of the result, for ``changes``, sent from the thread that delivers commits.
    private let steps = Broadcaster<ResultsStep<Model>, Never>(replayLimit: 0)
    /// Where the result listens to the store's commits, once it has started.
    private let route = Locked<RouteHandle?>(nil)
    private let registrar = ObservationRegistrar()

    /// A result of `query`; a `deferred` one reads nothing yet and takes its first rows from
    /// ``seed(_:objects:)`` (a read made for many results at once), or from the first commit it
    /// sees before that.
    init(store: Store, query: ResultsQuery<Model>, deferred: Bool = false) {
        self.store = store
        self.query = query
        state = Locked(ResultsState())
        isDetached = false
        let listening = query.route(store)
        membership = query.membership(routedBy: listening)
        start(store, listening, reading: !deferred)
    }

    /// An empty result that never changes: the children of an object that is not in a store.
    init(detached: Void) {
        store = nil
        query = ResultsQuery(predicate: nil, arguments: [], orderBy: nil)
        membership = JournalMembership(filterColumns: nil, comparison: nil, stableColumns: [])
        state = Locked(ResultsState())
        isDetached = true
    }

    /// Whether this is a result of no store (``init(detached:)``).
    private let isDetached: Bool

    deinit {
        route.withLock { $0 }?.stop()
    }

    /// Listens to the store's batches (through its ``ResultsRouter``), then reads the first
    /// result. A batch delivered meanwhile waits for the lock, and entries the first read
    /// already includes are skipped. Without `reading`, the first result is left to
    /// ``seed(_:objects:)``; a batch that comes first runs the query instead.
    private func start(_ store: Store, _ listening: ResultsRouter.Route, reading: Bool) {
        state.withLock { state in
            let handle = store.resultsRouter.listen(
                listening, of: store,
                receive: { [weak self] routed in self?.receive(routed) },
                complete: { [weak self] in self?.steps.send(.completed) }
            )
            route.withLock { $0 = handle }
            if handle == nil || store.isClosed { steps.send(.completed); return }
            defer { handle?.setWantsEveryBatch(state.needsRerun) }
            guard reading else {
                state.needsRerun = true
                return
            }
            do {
                let first = try query.runAll(store)
                state.reset(first)
                handle?.setReadThrough(first.seq)
                store.resumeReading(after: first.seq)
            } catch {
                state.needsRerun = true
                store.report(StoreError(error))
            }
        }
    }

    /// Tells the router whether this result waits for a query to run again (then every batch
    /// of its table reaches it, not only those of its key).
    private func updateRoute(_ needsRerun: Bool, readThrough: Int64 = 0) {
        guard let handle = route.withLock({ $0 }) else { return }
        handle.setWantsEveryBatch(needsRerun)
        handle.setReadThrough(readThrough)
    }

    /// Takes the first result of a deferred result (``init(store:query:deferred:)``) from a read
    /// made after it began listening: `rows` from a snapshot, and the objects already loaded.
    /// Ignored when a commit has made the result run its own query meanwhile.
    func seed(_ rows: ResultsQuery<Model>.Rows, objects: [Int64: Model]) {
        state.withLock { state in
            guard !state.hasResult else { return }
            state.reset(rows)
            state.keep(objects)
        }
        updateRoute(false, readThrough: rows.seq)
    }

    // MARK: Collection

    /// The first position: 0.
    public var startIndex: Int { 0 }

    /// One past the last position: the number of rows now (tracked by Observation).
    public var endIndex: Int {
        registrar.access(self, keyPath: \.endIndex)
        return state.withLock { $0.rowIDs.count }
    }

    /// The object at `position` in the current result, loaded on first access.
    ///
    /// The result may change between reading its count and this call (a commit from another
    /// thread): read a stable snapshot with ``objects`` or iterate, which walks one.
    public subscript(position: Int) -> Model {
        registrar.access(self, keyPath: \.endIndex)
        let slot = state.withLock { state -> (rowID: Int64, object: Model?)? in
            guard state.rowIDs.indices.contains(position) else { return nil }
            return (state.rowIDs[position], state.objects[position])
        }
        guard let slot else { preconditionFailure("index \(position) is out of range of a LiveResults of \(count) \(Model.self) objects") }
        if let object = slot.object { return object }
        let loaded = load([slot.rowID])[slot.rowID]!
        state.withLock { $0.keep(loaded, rowID: slot.rowID, near: position) }
        return loaded
    }

    /// Walks a snapshot of the objects, taken when iteration starts.
    public func makeIterator() -> IndexingIterator<[Model]> {
        objects.makeIterator()
    }

    /// The objects as they are now, in order (loading those not read yet, in one query).
    public var objects: [Model] {
        registrar.access(self, keyPath: \.endIndex)
        return materialize()
    }

    // MARK: Changes

    /// The result now (``ResultsChange/initial(_:)``), then one
    /// ``ResultsChange/update(_:deletions:insertions:modifications:)`` after each commit that
    /// changes it: a row that joined, left or moved, or a member whose values changed. Once per
    /// commit, in commit order, after the objects took their new values; never a state that
    /// was rolled back. Completes when the store closes.
    ///
    /// The initial result is sent before `subscribe` returns, unless another thread is
    /// delivering a commit at that moment: it is then sent right after that commit.
    public var changes: Signal<ResultsChange<Model>, Never> {
        Signal { [self] downstream in
            // Every step holds the whole result at that point of the sequence, so the first one a
            // subscriber gets (its own refresh, or an update that overtook it) is its initial
            // result, and the updates after it follow from it.
            let started = Locked(false)
            let subscription = steps.subscribe(Subscriber(sharing: downstream) { event in
                switch event {
                case .value(let step):
                    let isFirst = started.withLock { started in
                        defer { started = true }
                        return !started
                    }
                    if isFirst {
                        downstream.send(.initial(step.objects))
                    } else if !step.isRefresh {
                        downstream.send(.update(step.objects, deletions: step.diff.deletions, insertions: step.diff.insertions, modifications: step.diff.modifications))
                    }
                case .completed, .failed:
                    downstream.complete()
                }
            })
            guard let store, !store.isClosed else {
                if isDetached { downstream.send(.initial([])) }
                downstream.complete()
                return subscription
            }
            // In line with the batches, so the next update follows from this result.
            store.publisher.enqueue([.notification { [weak self] in self?.sendRefresh() }])
            store.publisher.drain()
            // The subscription keeps the result live until it is disposed or the store closes.
            return AnyDisposable { withExtendedLifetime(self) { subscription.dispose() } }
        }
    }

    /// Sends the whole result for a new subscriber, unless no query has succeeded yet (its
    /// failure was reported; the first result that works reaches the subscriber as an update).
    private func sendRefresh() {
        guard state.withLock({ $0.hasResult }) else { return }
        steps.send(.value(ResultsStep(objects: materialize(), diff: ResultsDiff(), isRefresh: true)))
    }

    // MARK: Commits

    /// Applies the entries of a batch that may concern this result: places the rows they name,
    /// or runs the query again when it cannot be incremental. Runs on the thread that delivers
    /// commits, one batch at a time.
    private func receive(_ routed: ResultsRouter.Routed) {
        guard let store else { return }
        let (plan, hadResult) = state.withLock { state in (state.plan(for: routed, query: query, membership), state.hasResult) }
        guard let plan else { return }
        let diff: ResultsDiff
        do {
            switch plan {
            case .rerun(let touched):
                let all = try query.runAll(store)
                diff = state.withLock { $0.replace(with: all, touched: touched, through: routed.through) }
                updateRoute(false, readThrough: all.seq)
            case .rows(var changed, let read, let told, var kept, let ordering, let parents):
                // Rows whose parent changed are placed again, as rows that changed themselves.
                let children = try query.children(of: parents, store)
                // A commit that changed only parents (a rename) takes the children as they are.
                if changed.isEmpty { changed = children } else { changed.formUnion(children) }
                if !kept.isEmpty { kept.subtract(children) }
                if let limit = query.limit {
                    diff = try applyWindow(limit, changed: changed, read: read.union(children), kept: kept, ordering, through: routed.through, store)
                } else {
                    diff = try applyRows(changed: changed, read: read, told: told, kept: kept, children: children, of: parents, ordering, through: routed.through, store)
                }
            }
        } catch {
            state.withLock { $0.needsRerun = true }
            updateRoute(true)
            store.report(StoreError(error))
            return
        }
        if diff.changesRows {
            // Observers learn of it once it happened, outside the lock (their code may read the
            // result); values of members that stay are their objects' own observation.
            registrar.willSet(self, keyPath: \.endIndex)
            registrar.didSet(self, keyPath: \.endIndex)
        }
        // The first result that could be read goes out even if empty: nothing was sent before.
        guard !diff.isEmpty || !hadResult, steps.subscriberCount > 0 else { return }
        steps.send(.value(ResultsStep(objects: materialize(), diff: diff, isRefresh: false)))
    }
}

/// One step of a live result, for ``LiveResults/changes``: the whole result after it and how it
/// differs from the one before; a refresh is the whole result again, for a new subscriber.
struct ResultsStep<Model: PersistentModel>: Sendable {
    let objects: [Model]
    let diff: ResultsDiff
    let isRefresh: Bool
}
