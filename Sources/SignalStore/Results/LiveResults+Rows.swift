extension LiveResults {
    /// Places a batch's rows in a result without a window: `read` are read again, `told` come
    /// from the entries, `kept` keep their keys, and `children` (of the parent rows `parents`
    /// names) are read again, unless the parents' entries tell their keys.
    ///
    /// They do when the batch updated one parent row's columns that only the order reads (a
    /// renamed customer, in a list ordered by customer name): each child the batch did not
    /// change itself keeps its membership, and a member its key but for the parent's new
    /// values. No child's row is read.
    func applyRows(
        changed: Set<Int64>, read: Set<Int64>, told: [Int64: [SQLiteValue]?], kept: Set<Int64>,
        children: Set<Int64>, of parents: ParentChanges, _ ordering: ResultsOrdering, through: Int64, _ store: Store
    ) throws -> ResultsDiff {
        let retold = parents.told.flatMap { query.filterLinks.contains($0.link) ? nil : $0 }
        let rekeyed: Set<Int64> = retold == nil ? [] : children.filter { !read.contains($0) && told[$0] == nil }
        let read = read.union(children.subtracting(rekeyed))
        var current = read.isEmpty ? [:] : try query.run(rows: read, ordering: ordering, store)
        for (rowID, key) in told where !read.contains(rowID) { current[rowID] = key }
        return state.withLock { state in
            if let retold, !rekeyed.isEmpty {
                // Re-keyed rows are neither read nor told (above), so none is in `current` yet.
                state.keys(ofChildren: rekeyed, through: retold.link, setting: retold.values, into: &current)
            }
            return state.apply(changed: changed, current: current, kept: kept, through: through)
        }
    }
}
