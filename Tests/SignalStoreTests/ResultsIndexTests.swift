@testable import SignalStore
import SignalStoreTestSupport
import Testing

/// The index under every live result, on its own: many rows changing at once, side by side (a
/// renamed parent's children) or scattered, with sort keys that tie, must leave the order a
/// fresh sort gives and indices that lead there.
@Suite struct ResultsIndexTests {
    typealias Row = (rowID: Int64, key: [SQLiteValue])

    let ordering = ResultsOrdering(terms: [(term: .init(column: "k", descending: false, explicitCollation: nil), collation: .binary)])

    /// The batch sort orders as a stable sort does: ties keep their order, in batches already
    /// in order, in reverse, in runs, at random and empty.
    @Test func theBatchSortIsAStableSort() {
        var random = SeededGenerator(seed: 7)
        var batches: [[Int]] = [[], [3], Array(0..<50), Array((0..<50).reversed()), [Int](repeating: 4, count: 20)]
        batches.append((0..<200).map { $0 / 10 % 3 })
        for count in [2, 3, 17, 100, 1_000] {
            batches.append((0..<count).map { _ in Int.random(in: 0..<(count / 2 + 1), using: &random) })
        }
        for keys in batches {
            let ours = keys.withUnsafeBufferPointer { keys in StableOrder.positions(keys.count) { keys[$0] < keys[$1] } }
            let stable = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            #expect(ours == stable, "\(keys)")
        }
    }

    @Test func runsAndScatteredRowsMovingTogetherKeepTheOrderOfAFreshSort() {
        var random = SeededGenerator(seed: 2_026)
        var members: [Int64: Int64] = [:]   // rowid → key
        for rowID in Int64(1)...2_000 { members[rowID] = Int64.random(in: 0..<50, using: &random) }
        var index = ResultsIndex(ordering: ordering, rows: sorted(members))
        for step in 0..<300 {
            let changed = changedRows(index.rowIDs, &random)
            let sharedKey = Int64.random(in: -1...50, using: &random)   // a run renamed to one key
            var current: [Int64: [SQLiteValue]] = [:]
            for rowID in changed {
                guard Int.random(in: 0..<10, using: &random) > 0 else {   // a tenth leave
                    members[rowID] = nil
                    continue
                }
                let key = Bool.random(using: &random) ? sharedKey : Int64.random(in: 0..<50, using: &random)
                members[rowID] = key
                current[rowID] = [.integer(key)]
            }
            let before = index.rowIDs
            let (diff, _) = index.apply(changed: changed, current: current)
            let expected = sorted(members).map(\.rowID)
            #expect(index.rowIDs == expected, "step \(step): the order of a fresh sort")
            var replayed = before
            for position in diff.deletions.reversed() { replayed.remove(at: position) }
            for position in diff.insertions { replayed.insert(expected[position], at: position) }
            #expect(replayed == expected, "step \(step): the indices lead to the new order")
        }
    }

    /// Up to 300 rows: a run of members side by side, members scattered, and rows that are not
    /// members yet (new rowids), in a mix.
    private func changedRows(_ rowIDs: [Int64], _ random: inout SeededGenerator) -> Set<Int64> {
        var changed = Set<Int64>()
        if !rowIDs.isEmpty {
            let start = Int.random(in: 0..<rowIDs.count, using: &random)
            let length = Int.random(in: 0...200, using: &random)
            changed.formUnion(rowIDs[start..<min(start + length, rowIDs.count)])
            for _ in 0..<Int.random(in: 0...40, using: &random) { changed.insert(rowIDs.randomElement(using: &random)!) }
        }
        for _ in 0..<Int.random(in: 0...60, using: &random) { changed.insert(Int64.random(in: 2_001...2_400, using: &random)) }
        return changed
    }

    private func sorted(_ members: [Int64: Int64]) -> [Row] {
        members.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { (rowID: $0.key, key: [.integer($0.value)]) }
    }
}
