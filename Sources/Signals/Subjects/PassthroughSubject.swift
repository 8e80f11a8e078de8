/// A hot source that broadcasts what is sent to it to the subscribers attached at that moment.
///
/// Nothing is replayed: a subscriber receives only what is sent after it subscribed.
/// ```swift
/// let taps = PassthroughSubject<Int, Never>()
/// taps.subscribe(onValue: { print("tap", $0) })
/// taps.send(1)
/// ```
/// `send` may be called from any thread and from inside a subscriber's callback; such a send is
/// delivered to every subscriber after the current delivery round (contract rule 4).
public final class PassthroughSubject<Value, Failure: Error>: SignalSource {
    @usableFromInline let broadcaster = Broadcaster<Value, Failure>(replayLimit: 0)

    /// Creates a subject with no subscribers.
    public init() {}

    /// Broadcasts a value. Ignored after ``fail(_:)`` or ``complete()``.
    @inlinable
    public func send(_ value: Value) {
        broadcaster.send(.value(value))
    }

    /// Ends every subscription with `error`; later subscribers receive it at once.
    public func fail(_ error: Failure) {
        broadcaster.send(.failed(error))
    }

    /// Completes every subscription; later subscribers complete at once.
    public func complete() {
        broadcaster.send(.completed)
    }

    /// A signal that attaches each subscriber to this subject.
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
