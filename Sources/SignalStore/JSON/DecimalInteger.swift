/// Reads a decimal `Int64` from UTF-8 bytes: the one integer reader of the JSON that
/// SignalStore reads by hand (the journal's rows, sync's log values). A base pointer and `==`
/// on bytes, so a debug build runs it without a generic call per digit (`Int64(String)` makes one).
package enum DecimalInteger {
    /// The integer of the bytes `start..<end` at `base`: an optional `-`, then one or more
    /// digits; `nil` for anything else, or for a value outside `Int64`.
    package static func read(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int64? {
        guard start < end else { return nil }
        let negative = base[start] == 0x2D   // -
        var at = negative ? start + 1 : start
        guard at < end else { return nil }
        var magnitude: UInt64 = 0
        while at < end {
            let digit = base[at] &- 0x30
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            at += 1
        }
        let limit = UInt64(Int64.max)
        if negative {
            guard magnitude <= limit + 1 else { return nil }
            return magnitude == limit + 1 ? .min : -Int64(magnitude)
        }
        return magnitude <= limit ? Int64(magnitude) : nil
    }
}
