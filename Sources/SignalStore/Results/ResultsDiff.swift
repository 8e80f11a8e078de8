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
