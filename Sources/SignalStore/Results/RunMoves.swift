/// Moves the runs of a buffer of plain values (rowids, object references as words) with one
/// `memmove` each, to take out or make room for a few positions of a long list: what a live
/// result does when a commit moves some of its rows, instead of moving the tail of the list for
/// each row.
enum RunMoves {
    /// Takes out the elements at `positions` (ascending) by moving the runs between them to the
    /// front. Returns how many are kept: they come first, and what follows them is left as it was.
    static func close<Element: BitwiseCopyable>(_ buffer: UnsafeMutableBufferPointer<Element>, at positions: [Int]) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var write = 0
        var read = 0
        for end in positions + [buffer.count] {
            let count = end - read
            if count > 0, write != read { (base + write).update(from: base + read, count: count) }
            write += count
            read = end + 1
        }
        return write
    }

    /// Makes room at `positions` (ascending, in the final order) by moving the runs between them
    /// back, into the room at the end (as many elements as positions), and writes `value(i)` at
    /// the `i`th position.
    static func open<Element: BitwiseCopyable>(_ buffer: UnsafeMutableBufferPointer<Element>, at positions: [Int], _ value: (Int) -> Element) {
        guard let base = buffer.baseAddress else { return }
        var source = buffer.count - positions.count   // the end of the elements not yet placed
        var end = buffer.count
        for offset in stride(from: positions.count - 1, through: 0, by: -1) {
            let position = positions[offset]
            let count = end - position - 1
            if count > 0 { (base + position + 1).update(from: base + source - count, count: count) }
            source -= count
            base[position] = value(offset)
            end = position
        }
    }
}
