import Dispatch

/// Calls an action at a fixed interval on a background queue until stopped: the store's
/// check for commits made by other connections.
final class ChangePoller: @unchecked Sendable {
    // @unchecked: `timer` is a DispatchSourceTimer, which is thread-safe; it is set once in init.
    private let timer: any DispatchSourceTimer

    /// Starts polling.
    /// - Parameters:
    ///   - interval: Time between two calls.
    ///   - action: Runs on a private serial queue, never concurrently with itself.
    init(interval: Duration, action: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "SignalStore.ChangePoller", qos: .utility)
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(1))
        timer.setEventHandler(handler: action)
        timer.resume()
    }

    /// Stops polling; a call already running finishes.
    func stop() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
