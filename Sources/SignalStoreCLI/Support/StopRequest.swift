import Foundation

/// A one-shot latch that ends a long-running command (`watch`, `changes --follow`, the demo's
/// waits): fired by SIGINT in the executable, by a test, or by the command itself when its
/// stream ends.
public final class StopRequest: @unchecked Sendable {
    // @unchecked: `fired` is read and written only while holding `condition`'s lock.
    private let condition = NSCondition()
    private var fired = false

    /// A latch that has not fired.
    public init() {}

    /// Fires the latch, waking every waiter. Firing twice does nothing more.
    public func fire() {
        condition.lock()
        fired = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the latch has fired.
    var isFired: Bool {
        condition.lock()
        defer { condition.unlock() }
        return fired
    }

    /// Blocks until the latch fires or `timeout` passes (forever when `nil`).
    /// - Returns: Whether the latch fired.
    @discardableResult
    func wait(timeout: Duration? = nil) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval(Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18) }
        condition.lock()
        defer { condition.unlock() }
        while !fired {
            if let deadline {
                if !condition.wait(until: deadline) { return fired }
            } else {
                condition.wait()
            }
        }
        return true
    }
}
