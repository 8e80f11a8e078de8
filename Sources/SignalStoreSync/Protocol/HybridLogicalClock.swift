#if SIGNALSTORE_SYNC
import Foundation

/// A hybrid logical clock stamp: 48 bits of milliseconds since 1970, then a 16-bit counter.
///
/// Stamps order the changes to one column across replicas (see the SyncDesign article). The
/// physical part keeps the time a change was made, even one uploaded hours later; the counter
/// and ``next(after:wallClock:)`` keep a change made after seeing another stamped later than it,
/// even when the machines' clocks disagree.
struct HybridLogicalClock: Comparable, Hashable, Sendable {
    /// The stamp as one number: `milliseconds << 16 | counter`.
    let rawValue: Int64

    init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The first stamp of a wall-clock time.
    init(time: Date) {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        rawValue = max(0, milliseconds) << 16
    }

    /// The stamp of a change made at `wallClock`, after every stamp this replica has seen
    /// (`last`).
    static func next(after last: HybridLogicalClock, wallClock: Date) -> HybridLogicalClock {
        HybridLogicalClock(rawValue: max(HybridLogicalClock(time: wallClock).rawValue, last.rawValue + 1))
    }

    static func < (lhs: HybridLogicalClock, rhs: HybridLogicalClock) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Who wrote a column's value and when: the order last-writer-wins decides by. The origin
/// breaks ties between equal stamps, so every replica decides alike.
struct Stamp: Comparable, Hashable, Sendable {
    let clock: HybridLogicalClock
    let origin: String

    static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.clock, lhs.origin) < (rhs.clock, rhs.origin)
    }
}
#endif
