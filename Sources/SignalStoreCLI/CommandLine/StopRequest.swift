import Signals

/// A one-shot latch that ends a long-running command (`watch`, `changes --follow`, the demo's
/// waits): fired by SIGINT in the executable, by a test, or by the command itself when its
/// stream ends.
public final class StopRequest: Sendable {
    private let fired = LockedCondition(false)

    /// A latch that has not fired.
    public init() {}

    /// Fires the latch, waking every waiter. Firing twice does nothing more.
    public func fire() {
        fired.withLock { $0 = true }
    }

    /// Whether the latch has fired.
    var isFired: Bool {
        fired.withLock { $0 }
    }

    /// Blocks until the latch fires or `timeout` passes (forever when `nil`).
    /// - Returns: Whether the latch fired.
    @discardableResult
    func wait(timeout: Duration? = nil) -> Bool {
        fired.wait(until: { $0 }, timeout: timeout) { _, isFired in isFired }
    }
}
