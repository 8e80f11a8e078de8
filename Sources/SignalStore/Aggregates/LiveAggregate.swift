/// A count, sum, average, minimum or maximum of a model's rows, per group or in one, kept
/// current after every commit from the rows it changed, by every writer.
///
/// It holds each member row's group and value. A commit reaches it as it reaches a live result
/// (``ResultsRouter``). The rows whose filter, group or value columns changed are told from the
/// commit's entries where they can be (``JournalMembership``), the others read once by rowid,
/// and the totals move by their old and new values. A minimum or maximum that leaves is read
/// again for its group. ``changes`` sends the groups each commit changed.
final class LiveAggregate<Model: PersistentModel>: Sendable {
    private weak let store: Store?
    let query: AggregateQuery<Model>
    /// What a commit's entries tell, as far as the filter's column compares by a built-in
    /// collation.
    private let membership: JournalMembership
    private let state: Locked<AggregateState>
    /// The groups each commit changed, with their new totals; the last one is replayed, and a
    /// subscriber takes every group's totals from ``snapshot()`` when it starts.
    let changes = Broadcaster<AggregateChange, Never>(replayLimit: 1)
    private let route = Locked<RouteHandle?>(nil)

    init(store: Store, query: AggregateQuery<Model>) {
        self.store = store
        self.query = query
        state = Locked(AggregateState(keepsExtremes: query.keepsExtremes))
        let listening = query.rows.route(store)
        membership = query.rows.membership(routedBy: listening)
        start(store, listening)
    }

    deinit {
        route.withLock { $0 }?.stop()
    }

    /// Listens for commits, then reads every member row; a batch delivered meanwhile waits for
    /// the lock, and entries the read already includes are skipped.
    private func start(_ store: Store, _ listening: ResultsRouter.Route) {
        state.withLock { state in
            let handle = store.resultsRouter.listen(
                listening, of: store,
                receive: { [weak self] routed in self?.receive(routed) },
                complete: { [weak self] in self?.changes.send(.completed) }
            )
            route.withLock { $0 = handle }
            if handle == nil || store.isClosed { changes.send(.completed); return }
            do {
                let all = try query.readAll(store)
                state.reset(all.rows, through: all.seq)
                handle?.setReadThrough(all.seq)
                store.resumeReading(after: all.seq)
                changes.send(.value(AggregateChange(version: state.version, groups: nil)))
            } catch {
                state.needsRerun = true
                handle?.setWantsEveryBatch(true)
                store.report(StoreError(error))
            }
        }
    }

    /// Every group's totals and the version they are at.
    func snapshot() -> (groups: [SQLiteValue: AggregateTotals], version: Int) {
        state.withLock { ($0.groups, $0.version) }
    }

    /// What a batch asks: `nil` nothing, else the rows to read (`all`: read every row again),
    /// the rows its entries tell, the rows gone, and the parents whose children to read too.
    private func plan(_ routed: ResultsRouter.Routed, _ state: inout AggregateState) -> Plan? {
        guard routed.through > state.seq else { return nil }
        // Usually the aggregate has seen none of the batch: all of it, without walking it.
        let seenNone = routed.changes.first.map { $0.seq > state.seq } ?? true
        let after = seenNone ? routed.changes[...] : routed.changes.drop { $0.seq <= state.seq }
        if state.needsRerun || routed.skippedEntries || query.rows.readsOtherTables { return Plan(all: true) }
        guard let parents = query.rows.parentReads.isEmpty ? ParentChanges() : ParentChanges(after, reads: query.rows.parentReads) else {
            return Plan(all: true)
        }
        let rows = BatchRows(after, table: Model._$table, stableColumns: query.rows.stableColumns, dependencies: query.dependencies)
        let read = rows.read
        let gone = rows.gone.subtracting(read)
        guard !read.isEmpty || gone.contains(where: { state.members[$0] != nil }) || !parents.isEmpty else {
            state.seq = routed.through
            return nil
        }
        let members = state.members
        let (told, unread) = membership.tell(read, from: after, table: Model._$table, carrying: query.carried) { rowID in
            members[rowID].map { [$0.group, $0.value] }
        }
        return Plan(all: false, read: unread, told: told.mapValues { $0.map { AggregateState.Member(group: $0[0], value: $0[1]) } }, gone: gone, parents: parents)
    }

    /// What a batch asks of the aggregate (see ``plan(_:_:)``).
    private struct Plan {
        let all: Bool
        var read = Set<Int64>()
        var told = [Int64: AggregateState.Member?]()
        var gone = Set<Int64>()
        var parents = ParentChanges()
    }

    /// Applies the entries of a batch that may concern this aggregate. Runs on the thread that
    /// delivers commits, one batch at a time.
    private func receive(_ routed: ResultsRouter.Routed) {
        guard let store, let plan = state.withLock({ plan(routed, &$0) }) else { return }
        do {
            let change: AggregateChange?
            if plan.all {
                let all = try query.readAll(store)
                change = state.withLock { state in
                    let before = state.groups
                    state.reset(all.rows, through: max(all.seq, routed.through))
                    return state.groups == before ? nil : AggregateChange(version: state.version, groups: nil)
                }
                route.withLock { $0 }?.setWantsEveryBatch(false)
                route.withLock { $0 }?.setReadThrough(all.seq)
            } else {
                var read = plan.read
                if !plan.parents.isEmpty { read.formUnion(try query.rows.children(of: plan.parents, store)) }
                var current = read.isEmpty ? [Int64: AggregateState.Member]() : try query.read(read, store)
                // A row whose parent changed too is read: its entries do not tell its parent's part.
                for (rowID, member) in plan.told where !read.contains(rowID) { current[rowID] = member }
                var touched = read
                if !plan.gone.isEmpty { touched.formUnion(plan.gone) }
                if !plan.told.isEmpty { touched.formUnion(plan.told.keys) }
                change = try state.withLock { state in
                    state.replace(touched, with: current)
                    if query.keepsExtremes, !state.staleExtremes.isEmpty {
                        state.setExtremes(try query.extremes(of: state.staleExtremes, store))
                    }
                    state.seq = max(state.seq, routed.through)
                    let changes = state.takeChanges()
                    return changes.isEmpty ? nil : AggregateChange(version: state.version, groups: changes)
                }
            }
            if let change { changes.send(.value(change)) }
        } catch {
            state.withLock { $0.needsRerun = true }
            route.withLock { $0 }?.setWantsEveryBatch(true)
            store.report(StoreError(error))
        }
    }
}
