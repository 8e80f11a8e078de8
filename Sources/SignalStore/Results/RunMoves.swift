import Foundation

/// Moves the runs of a buffer of plain values (rowids, object references as words) with one
/// `memmove` each, to take out or make room for a few positions of a long list: what a live
/// result does when a commit moves some of its rows, instead of moving the tail of the list for
/// each row.
///
/// It calls `memmove` itself and loops with counters: a debug build runs the standard library's
/// generic `update(from:count:)` element by element, and a `for … in` through the runtime.
enum RunMoves {
    /// Takes out the elements at `positions` (ascending) by moving the runs between them to the
    /// front. Returns how many are kept: they come first, and what follows them is left as it was.
    static func close<Element: BitwiseCopyable>(_ buffer: UnsafeMutableBufferPointer<Element>, at positions: [Int]) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let stride = MemoryLayout<Element>.stride
        var write = 0
        var read = 0
        var offset = 0
        while offset <= positions.count {
            let end = offset < positions.count ? positions[offset] : buffer.count
            let count = end - read
            if count > 0, write != read { memmove(base + write, base + read, count * stride) }
            write += count
            read = end + 1
            offset += 1
        }
        return write
    }

    /// Makes room at `positions` (ascending, in the final order) by moving the runs between them
    /// back, into the room at the end (as many elements as positions), and writes `value(i)` at
    /// the `i`th position.
    static func open<Element: BitwiseCopyable>(_ buffer: UnsafeMutableBufferPointer<Element>, at positions: [Int], _ value: (Int) -> Element) {
        guard let base = buffer.baseAddress else { return }
        let stride = MemoryLayout<Element>.stride
        var source = buffer.count - positions.count   // the end of the elements not yet placed
        var end = buffer.count
        var offset = positions.count - 1
        while offset >= 0 {
            let position = positions[offset]
            let count = end - position - 1
            if count > 0 { memmove(base + position + 1, base + source - count, count * stride) }
            source -= count
            base[position] = value(offset)
            end = position
            offset -= 1
        }
    }
}
