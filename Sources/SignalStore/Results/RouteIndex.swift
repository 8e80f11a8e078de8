/// The ``ResultsRouter``'s listeners, filed so a batch finds the ones it may concern without
/// walking the others: by table, and for keyed results by key column and value. A value type
/// with no lock and no I/O; the router owns one behind its lock.
struct RouteIndex {
    typealias Listener = ResultsRouter.Listener

    private struct Entry {
        let listener: Listener
        /// A keyed result waiting for its query to run again: filed with its table's others.
        var waiting = false
        /// The journal position its last whole read saw; 0 before one.
        var readThrough: Int64 = 0
    }

    /// Who a batch reaches.
    struct Plan {
        /// Results that missed entries (pruned before the store read them): the whole batch.
        var skipped: [Listener] = []
        /// Results whose query reads other tables: the whole batch.
        var everyBatch: [Listener] = []
        /// Those of each table asked for, in the order asked (an array, not a dictionary by
        /// table: a batch is nearly always of one table, and a debug build pays the runtime
        /// for each use of a dictionary).
        var tables: [TablePlan] = []
    }

    /// Who a batch reaches among one table's results.
    struct TablePlan {
        /// Results that get all of the table's entries.
        var tableWide: [Listener] = []
        /// Keyed results, by key column and key value.
        var keyed = [String: [SQLiteValue: [Int: Listener]]]()
    }

    private var entries: [Int: Entry] = [:]
    private var everyBatch: [Int: Listener] = [:]
    private var tableWide: [String: [Int: Listener]] = [:]
    private var keyed: [String: [String: [SQLiteValue: [Int: Listener]]]] = [:]

    var isEmpty: Bool { entries.isEmpty }
    var all: [(id: Int, listener: Listener)] { entries.map { ($0.key, $0.value.listener) } }

    mutating func insert(_ listener: Listener, id: Int) {
        entries[id] = Entry(listener: listener)
        file(id, listener, waiting: false)
    }

    mutating func remove(_ id: Int) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        unfile(id, entry.listener.route, waiting: entry.waiting)
    }

    mutating func setWaiting(_ id: Int, _ waiting: Bool) {
        guard let entry = entries[id], entry.waiting != waiting, entry.listener.route.key != nil else { return }
        unfile(id, entry.listener.route, waiting: entry.waiting)
        entries[id]?.waiting = waiting
        file(id, entry.listener, waiting: waiting)
    }

    mutating func setReadThrough(_ id: Int, _ seq: Int64) {
        guard let old = entries[id]?.readThrough, seq > old else { return }
        entries[id]?.readThrough = seq
    }

    /// Who a batch of entries of `tables` (lowercased, each once), starting at `first`, reaches,
    /// after batches routed through `routedThrough`; ``Plan/tables`` holds one plan per table, in
    /// the same order.
    func plan(tables: [String], first: Int64, routedThrough: Int64) -> Plan {
        var plan = Plan()
        // A result has seen the entries of the batches routed since it listens, or its own
        // read's, whichever came later; only a batch that does not follow the routed ones can
        // leave a gap, so the others are not walked one by one.
        var gapped = Set<Int>()
        if routedThrough == 0 || first > routedThrough + 1 {
            for (id, entry) in entries {
                let seen = max(routedThrough, entry.readThrough)
                if seen > 0, first > seen + 1 {
                    gapped.insert(id)
                    plan.skipped.append(entry.listener)
                }
            }
        }
        for (id, listener) in everyBatch where !gapped.contains(id) { plan.everyBatch.append(listener) }
        for table in tables {
            var reached = TablePlan()
            if let listeners = tableWide[table] {
                reached.tableWide = listeners.compactMap { gapped.contains($0.key) ? nil : $0.value }
            }
            if var columns = keyed[table] {
                if !gapped.isEmpty {
                    for (column, byValue) in columns {
                        columns[column] = byValue.mapValues { $0.filter { !gapped.contains($0.key) } }
                    }
                }
                reached.keyed = columns
            }
            plan.tables.append(reached)
        }
        return plan
    }

    private mutating func file(_ id: Int, _ listener: Listener, waiting: Bool) {
        let route = listener.route
        let table = route.table.lowercased()
        if route.readsOtherTables || !route.parentTables.isEmpty {
            everyBatch[id] = listener
        } else if let key = route.key, !waiting {
            keyed[table, default: [:]][key.column.lowercased(), default: [:]][key.value, default: [:]][id] = listener
        } else {
            tableWide[table, default: [:]][id] = listener
        }
    }

    private mutating func unfile(_ id: Int, _ route: ResultsRouter.Route, waiting: Bool) {
        let table = route.table.lowercased()
        if route.readsOtherTables || !route.parentTables.isEmpty {
            everyBatch[id] = nil
        } else if let key = route.key, !waiting {
            let column = key.column.lowercased()
            keyed[table]?[column]?[key.value]?[id] = nil
            if keyed[table]?[column]?[key.value]?.isEmpty == true { keyed[table]?[column]?[key.value] = nil }
            if keyed[table]?[column]?.isEmpty == true { keyed[table]?[column] = nil }
            if keyed[table]?.isEmpty == true { keyed[table] = nil }
        } else {
            tableWide[table]?[id] = nil
            if tableWide[table]?.isEmpty == true { tableWide[table] = nil }
        }
    }
}
