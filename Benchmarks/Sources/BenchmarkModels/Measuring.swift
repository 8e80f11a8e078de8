import Dispatch
import Foundation
import Synchronization

/// CPU time of the process so far, in nanoseconds (every thread, live or ended: the poller's
/// read of the journal, a result's work and a peer's reader threads included). `getrusage`,
/// since the process CPU clock was seen to step back here when worker threads came and went.
public func cpuTime() -> UInt64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000 + UInt64(usage.ru_utime.tv_usec)
    let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000 + UInt64(usage.ru_stime.tv_usec)
    return (user + system) * 1_000
}

/// The median of `values`.
public func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Counts the new values a subscriber receives, and measures the CPU from a write's start to
/// the value it causes (a peer may deliver it before its `write` returns, so the count, not the
/// order of calls, says when it has arrived).
public final class Arrivals: Sendable {
    private let count = Atomic<Int>(0)
    private let signal = DispatchSemaphore(value: 0)

    public init() {}

    /// Called by the subscriber for each new value.
    public func arrive() {
        count.add(1, ordering: .releasing)
        signal.signal()
    }

    /// Waits for the first value.
    public func waitForFirst() {
        while count.load(ordering: .acquiring) < 1 { signal.wait() }
    }

    /// CPU in µs from before `write` to the arrival of the value after it.
    public func measure(_ write: () -> Void) -> Double {
        let expected = count.load(ordering: .acquiring) + 1
        let started = cpuTime()
        write()
        while count.load(ordering: .acquiring) < expected { signal.wait() }
        return Double(cpuTime() - started) / 1_000
    }
}
