extension LiveResults {
    /// Places a batch's rows in a window, refilling it from the table when rows left: both
    /// reads in one snapshot, under the result's lock (as its first query), so the refill
    /// continues exactly the rows the window holds.
    func applyWindow(
        _ limit: Int, changed: Set<Int64>, read: Set<Int64>, kept: Set<Int64>, _ ordering: ResultsOrdering, through: Int64, _ store: Store
    ) throws -> ResultsDiff {
        try state.withLock { state in
            try store.reading { connection, _ in
                let current = read.isEmpty ? [:] : try query.run(rows: read, ordering: ordering, store, connection)
                return try state.apply(changed: changed, current: current, kept: kept, through: through, window: limit) { window, count in
                    try query.rows(besides: window, count: count, ordering: ordering, connection)
                }
            }
        }
    }
}
