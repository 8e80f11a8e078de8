/// The rows of a live result in order: rowids and sort keys, no objects. Applies a commit's
/// changed rows in O(changed rows × log n) comparisons (plus moving the array's tail, a
/// `memmove` of 8 bytes a row) and reports the change as indices, the convention of
/// ``ResultsChange``: deletions in the old order, insertions and modifications in the new one,
/// a row that moves as a deletion and an insertion.
///
/// A value type with no lock and no I/O: ``LiveResults`` owns one behind its lock and feeds it
/// the rows a query returned.
///
/// Its per-commit loops index arrays and map with closures, not `enumerated()` and key paths: a
/// debug build, which users run, makes those through the Swift runtime (a tuple's type, a key
/// path's projection) at a few hundred instructions an element.
struct ResultsIndex {
    /// The rowids, in result order.
    private(set) var rowIDs: [Int64] = []
    /// Each member's sort key, in term order.
    private var keys: [Int64: [SQLiteValue]] = [:]
    let ordering: ResultsOrdering

    /// An index of `rows`, already in the ordering's order (as the query returned them).
    init(ordering: ResultsOrdering, rows: [(rowID: Int64, key: [SQLiteValue])]) {
        self.ordering = ordering
        rowIDs = rows.map(\.rowID)
        keys = Dictionary(rows.map { ($0.rowID, $0.key) }, uniquingKeysWith: { _, last in last })
    }

    var count: Int { rowIDs.count }

    func contains(_ rowID: Int64) -> Bool { keys[rowID] != nil }

    /// A member's sort key.
    func key(of rowID: Int64) -> [SQLiteValue]? { keys[rowID] }

    /// The last member and its sort key.
    var last: (rowID: Int64, key: [SQLiteValue])? {
        rowIDs.last.map { ($0, keys[$0]!) }
    }

    /// Drops the last members while there are more than `limit` or they come after
    /// `boundary` (a window's rows); returns whether any was dropped. O(dropped).
    mutating func trim(after boundary: (rowID: Int64, key: [SQLiteValue])?, limit: Int) -> Bool {
        var dropped = false
        while let last = self.last, rowIDs.count > limit || boundary.map({ ordering.areInIncreasingOrder($0, last) }) == true {
            rowIDs.removeLast()
            keys[last.rowID] = nil
            dropped = true
        }
        return dropped
    }

    /// The position of a member, by binary search on its key.
    func index(of rowID: Int64) -> Int? {
        guard let key = keys[rowID] else { return nil }
        let position = insertionPoint(for: (rowID, key))
        return position < rowIDs.count && rowIDs[position] == rowID ? position : nil
    }

    /// The first position (from `start` on) whose row does not come before `row`. From a `start`
    /// past the first position (the place of the row before it in a sorted batch) it gallops,
    /// probing 1, 2, 4… rows on, then searches the last step: rows that arrive together often land
    /// together (a renamed parent's children), and each then costs a few comparisons, not log n.
    private func insertionPoint(for row: (rowID: Int64, key: [SQLiteValue]), from start: Int = 0) -> Int {
        var low = start
        var high = rowIDs.count
        if start > 0 {
            var step = 1
            while low < high {
                let probe = min(low + step, high) - 1
                guard comesBefore(probe, row) else {
                    high = probe
                    break
                }
                low = probe + 1
                step *= 2
            }
        }
        while low < high {
            let middle = (low + high) / 2
            if comesBefore(middle, row) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the member at `position` comes before `row`.
    private func comesBefore(_ position: Int, _ row: (rowID: Int64, key: [SQLiteValue])) -> Bool {
        let other = rowIDs[position]
        return ordering.areInIncreasingOrder((other, keys[other] ?? []), row)
    }

    /// The members among `changed`, with their indices, ascending. Each is found by binary
    /// search on its key unless it sits in a run of changed members beside one already found:
    /// the run is walked instead, so a renamed parent's children, side by side, cost one search,
    /// and only the runs are sorted.
    private func indices(of changed: Set<Int64>) -> [(rowID: Int64, index: Int)] {
        var found = Set<Int64>()
        var runs: [Range<Int>] = []
        var foundCount = 0
        for rowID in changed where !found.contains(rowID) {
            guard let index = index(of: rowID) else { continue }
            var (low, high) = (index, index + 1)
            while low > 0, changed.contains(rowIDs[low - 1]) { low -= 1 }
            while high < rowIDs.count, changed.contains(rowIDs[high]) { high += 1 }
            runs.append(low..<high)
            // Every changed row found (one run, as a renamed parent's children are): no other
            // is looked for, so none needs to be remembered.
            foundCount += high - low
            if foundCount == changed.count { break }
            for position in low..<high { found.insert(rowIDs[position]) }
        }
        var members: [(rowID: Int64, index: Int)] = []
        members.reserveCapacity(found.count)
        for run in runs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            var position = run.lowerBound
            while position < run.upperBound {
                members.append((rowIDs[position], position))
                position += 1
            }
        }
        return members
    }

    /// Applies a commit: `changed` are the rows its entries touched, `current` those of them
    /// that match the filter now, with their keys. Returns the change as indices, and the rows
    /// that were members before with their old indices (ascending).
    @discardableResult
    mutating func apply(changed: Set<Int64>, current: [Int64: [SQLiteValue]]) -> (diff: ResultsDiff, leaving: [(rowID: Int64, index: Int)]) {
        let leaving = indices(of: changed)
        remove(leaving.rowIndices)
        // A row that stays takes its new key below: only those that leave are forgotten.
        for row in leaving where current[row.rowID] == nil { keys[row.rowID] = nil }
        for (rowID, key) in current { keys[rowID] = key }
        // By rowid first, which is cheap: rows whose keys tie (a renamed parent's children) are
        // then in order already, and the ordering's sort, finding one run, only checks them.
        var rows: [(rowID: Int64, key: [SQLiteValue])] = []
        rows.reserveCapacity(current.count)
        for (rowID, key) in current { rows.append((rowID, key)) }
        let byRowID = rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return rows.arranged([]) }
            return rows.arranged(StableOrder.positions(rows.count) { base[$0].rowID < base[$1].rowID })
        }
        let sorted = byRowID.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return byRowID }
            return rows.arranged(StableOrder.positions(rows.count) { ordering.areInIncreasingOrder(base[$0], base[$1]) })
        }
        let arriving = insert(sorted)
        return (ResultsDiff(leaving: leaving, arriving: arriving), leaving)
    }

    /// Removes the rows at `indices` (ascending): the runs between them move to the front
    /// (``RunMoves``).
    private mutating func remove(_ indices: [Int]) {
        guard indices.count > 16 else {
            for index in indices.reversed() { rowIDs.remove(at: index) }
            return
        }
        _ = rowIDs.withUnsafeMutableBufferPointer { RunMoves.close($0, at: indices) }
        rowIDs.removeLast(indices.count)
    }

    /// Inserts `sorted` (in the ordering's order, keys already filed) and returns each one's
    /// final index, ascending. Each finds its place by binary search after the one before;
    /// the runs between them then move back in place (``RunMoves``).
    private mutating func insert(_ sorted: [(rowID: Int64, key: [SQLiteValue])]) -> [(rowID: Int64, index: Int)] {
        guard sorted.count > 16 else {
            for row in sorted { rowIDs.insert(row.rowID, at: insertionPoint(for: row)) }
            return sorted.map { row in (row.rowID, insertionPoint(for: row)) }
        }
        // Where each lands among the old rows, then in the merged order.
        var low = 0
        var placed: [(rowID: Int64, index: Int)] = []
        placed.reserveCapacity(sorted.count)
        for offset in 0..<sorted.count {
            low = insertionPoint(for: sorted[offset], from: low)
            placed.append((sorted[offset].rowID, low + offset))
        }
        rowIDs.append(contentsOf: [Int64](repeating: 0, count: sorted.count))
        rowIDs.withUnsafeMutableBufferPointer { RunMoves.open($0, at: placed.rowIndices) { placed[$0].rowID } }
        return placed
    }
}

private extension UnsafeBufferPointer {
    /// The elements at `positions`, in that order: a loop with a counter, since a debug build
    /// runs `map` generically, at about a thousand instructions an element.
    func arranged(_ positions: [Int]) -> [Element] {
        var arranged: [Element] = []
        arranged.reserveCapacity(positions.count)
        var offset = 0
        while offset < positions.count {
            arranged.append(self[positions[offset]])
            offset += 1
        }
        return arranged
    }
}

extension Array where Element == (rowID: Int64, index: Int) {
    /// The rows' indices, in order: a loop with a counter, since a debug build runs `map`
    /// generically, at about a thousand instructions a row.
    var rowIndices: [Int] {
        var rowIndices: [Int] = []
        rowIndices.reserveCapacity(count)
        var offset = 0
        while offset < count {
            rowIndices.append(self[offset].index)
            offset += 1
        }
        return rowIndices
    }
}
