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

/// A change of a live result as indices (see ``ResultsChange``).
struct ResultsDiff: Equatable, Sendable {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
    /// Whether membership or order changed (not only values).
    var changesRows: Bool { !deletions.isEmpty || !insertions.isEmpty }

    init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// The diff of an incremental step: the changed rows that were members (old indices,
    /// ascending) and those that are members now (new indices, ascending). A row in both stays
    /// a modification when the rows around it are the same: it sits after as many unchanged
    /// rows as before (its *slot*), and the rows sharing its slot keep their order. Otherwise
    /// it moved: a deletion and an insertion.
    init(leaving: [(rowID: Int64, index: Int)], arriving: [(rowID: Int64, index: Int)]) {
        guard Self.shareASlot(leaving, arriving) else {
            // Nothing can stay (a renamed parent's children, all moved): no row's lookups.
            self.init(deletions: leaving.rowIndices, insertions: arriving.rowIndices)
            return
        }
        var oldSlots: [Int64: (slot: Int, index: Int)] = [:]
        for offset in 0..<leaving.count { oldSlots[leaving[offset].rowID] = (leaving[offset].index - offset, leaving[offset].index) }
        var staying: [Int: [(rowID: Int64, old: Int, new: Int)]] = [:]
        for offset in 0..<arriving.count {
            let row = arriving[offset]
            if let old = oldSlots[row.rowID], old.slot == row.index - offset {
                staying[old.slot, default: []].append((row.rowID, old.index, row.index))
            }
        }
        var kept: [Int64: Int] = [:]
        for group in staying.values {
            // `group` is in new order; kept only if that is also the old order.
            if zip(group, group.dropFirst()).allSatisfy({ $0.old < $1.old }) {
                for row in group { kept[row.rowID] = row.new }
            }
        }
        self.init(
            deletions: leaving.filter { kept[$0.rowID] == nil }.map { $0.index },
            insertions: arriving.filter { kept[$0.rowID] == nil }.map { $0.index },
            modifications: kept.values.sorted()
        )
    }

    /// Whether a row of `leaving` and one of `arriving` sit in the same slot (see
    /// ``init(leaving:arriving:)``), which a row must to stay. Both lists' slots never decrease,
    /// so one walk of the two answers it, with no lookups.
    private static func shareASlot(_ leaving: [(rowID: Int64, index: Int)], _ arriving: [(rowID: Int64, index: Int)]) -> Bool {
        var (old, new) = (0, 0)
        while old < leaving.count, new < arriving.count {
            let (oldSlot, newSlot) = (leaving[old].index - old, arriving[new].index - new)
            if oldSlot == newSlot { return true }
            if oldSlot < newSlot { old += 1 } else { new += 1 }
        }
        return false
    }

    /// The diff between two whole results (a re-run query): rows only in `old` are deleted,
    /// rows only in `new` inserted; of the rows in both, the longest run that keeps its order
    /// stays and the others move. Rows in `touched` that stay are modifications.
    init(old: [Int64], new: [Int64], touched: Set<Int64>) {
        var oldIndex: [Int64: Int] = [:]
        for (index, rowID) in old.enumerated() { oldIndex[rowID] = index }
        let common = new.enumerated().compactMap { index, rowID in oldIndex[rowID].map { (new: index, old: $0) } }
        var stayingOld = Set<Int>()
        var stayingNew = Set<Int>()
        for offset in Self.longestIncreasingRun(common.map(\.old)) {
            stayingOld.insert(common[offset].old)
            stayingNew.insert(common[offset].new)
        }
        self.init(
            deletions: old.indices.filter { !stayingOld.contains($0) },
            insertions: new.indices.filter { !stayingNew.contains($0) },
            modifications: new.indices.filter { stayingNew.contains($0) && touched.contains(new[$0]) }
        )
    }

    /// The offsets of a longest strictly increasing subsequence of `values` (patience sorting,
    /// O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []   // offsets of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[offset] = tails[low - 1] }
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var run: [Int] = []
        var offset = tails.last ?? -1
        while offset >= 0 {
            run.append(offset)
            offset = previous[offset]
        }
        return run.reversed()
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

private extension Array where Element == (rowID: Int64, index: Int) {
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
