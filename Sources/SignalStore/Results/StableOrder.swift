/// A stable sort for the rows a commit hands a live result, which mostly arrive in order (a
/// renamed parent's children, tied on its name, come in rowid order): it merges the runs that
/// are already in order, so an ordered batch costs one comparison per row, and any batch
/// O(n log n).
///
/// It orders positions, not elements, through unsafe buffers: a debug build runs the standard
/// library's generic sort at thousands of instructions per comparison, and this one at tens.
enum StableOrder {
    /// The positions `0..<count` in the order `precedes` gives; positions whose elements are
    /// equal (neither precedes the other) keep their order.
    static func positions(_ count: Int, by precedes: (Int, Int) -> Bool) -> [Int] {
        var order = [Int](repeating: 0, count: count)
        guard count > 0 else { return order }
        var spare = [Int](repeating: 0, count: count)
        order.withUnsafeMutableBufferPointer { order in
            spare.withUnsafeMutableBufferPointer { spare in
                // Pointers, not the buffers' subscripts: a debug build calls those, and inlines
                // a pointer's. The positions are written in a loop: a debug build makes
                // `Array(0..<count)` generically, at over a thousand instructions a position.
                guard let orderBase = order.baseAddress, let spareBase = spare.baseAddress else { return }
                var filled = 0
                while filled < count {
                    orderBase[filled] = filled
                    filled += 1
                }
                guard count > 1 else { return }
                var ends: [Int] = []
                var position = 1
                while position < count {
                    if precedes(position, position - 1) { ends.append(position) }
                    position += 1
                }
                ends.append(count)
                var (source, target) = (orderBase, spareBase)
                while ends.count > 1 {
                    ends = mergePairs(of: ends, from: source, into: target, precedes)
                    swap(&source, &target)
                }
                if source != orderBase { orderBase.update(from: source, count: count) }
            }
        }
        return order
    }

    /// Merges the runs of `source` that end at `ends` two by two into `target`; returns where
    /// the merged runs end.
    private static func mergePairs(
        of ends: [Int], from source: UnsafeMutablePointer<Int>, into target: UnsafeMutablePointer<Int>,
        _ precedes: (Int, Int) -> Bool
    ) -> [Int] {
        var merged: [Int] = []
        var start = 0
        var pair = 0
        while pair < ends.count {
            let middle = ends[pair]
            let end = pair + 1 < ends.count ? ends[pair + 1] : middle
            merge(source, start, middle, end, into: target, precedes)
            merged.append(end)
            start = end
            pair += 2
        }
        return merged
    }

    /// Merges `source[start..<middle]` and `source[middle..<end]` into `target[start..<end]`,
    /// taking from the second run only what precedes the first's next.
    private static func merge(
        _ source: UnsafeMutablePointer<Int>, _ start: Int, _ middle: Int, _ end: Int,
        into target: UnsafeMutablePointer<Int>, _ precedes: (Int, Int) -> Bool
    ) {
        var (left, right, out) = (start, middle, start)
        while left < middle && right < end {
            if precedes(source[right], source[left]) {
                target[out] = source[right]
                right += 1
            } else {
                target[out] = source[left]
                left += 1
            }
            out += 1
        }
        while left < middle {
            target[out] = source[left]
            left += 1
            out += 1
        }
        while right < end {
            target[out] = source[right]
            right += 1
            out += 1
        }
    }
}
