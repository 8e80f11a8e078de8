/// A hot source that replays up to `bufferSize` of its latest values to every new subscriber.
///
/// ```swift
/// let log = ReplaySubject<String, Never>(bufferSize: 2)
/// log.send("a"); log.send("b"); log.send("c")
/// log.subscribe(onValue: { print($0) })   // prints b, c
/// ```
/// After termination, a new subscriber receives the buffered values and then the terminal event.
public final class ReplaySubject<Value, Failure: Error>: SignalSource {
    @usableFromInline let broadcaster: Broadcaster<Value, Failure>

    /// Creates a subject that remembers the latest `bufferSize` values.
    /// - Parameter bufferSize: How many values to replay; must not be negative.
    public init(bufferSize: Int) {
        precondition(bufferSize >= 0, "ReplaySubject bufferSize must be zero or more, got \(bufferSize)")
        broadcaster = Broadcaster(replayLimit: bufferSize)
    }

    /// Buffers and broadcasts a value. Ignored after ``fail(_:)`` or ``complete()``.
    @inlinable
    public func send(_ value: Value) {
        broadcaster.send(.value(value))
    }

    /// Ends every subscription with `error`.
    public func fail(_ error: Failure) {
        broadcaster.send(.failed(error))
    }

    /// Completes every subscription.
    public func complete() {
        broadcaster.send(.completed)
    }

    /// A signal that replays the buffer, then follows this subject.
    @inlinable
    public var signal: Signal<Value, Failure> {
        let broadcaster = self.broadcaster
        return Signal { subscriber in broadcaster.subscribe(subscriber) }
    }

    /// How many subscriptions are attached now.
    public var subscriberCount: Int {
        broadcaster.subscriberCount
    }
}
