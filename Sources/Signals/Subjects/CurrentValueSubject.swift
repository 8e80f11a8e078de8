/// A hot source that holds a current value and replays it to every new subscriber.
///
/// A subscriber receives the current value synchronously during `subscribe`, then every later
/// value, with no gap and no duplicate even while other threads send (contract rule 5). The
/// value is stored before it is emitted, so ``value`` read from a callback is the new value.
/// ```swift
/// let count = CurrentValueSubject<Int, Never>(0)
/// count.subscribe(onValue: { print($0) })   // prints 0
/// count.value = 1                           // prints 1
/// ```
public final class CurrentValueSubject<Value, Failure: Error>: SignalSource {
    @usableFromInline let broadcaster: Broadcaster<Value, Failure>

    /// Creates a subject holding `value`.
    public init(_ value: Value) {
        broadcaster = Broadcaster(replayLimit: 1, initial: value)
    }

    /// The current value. Setting it is the same as ``send(_:)``.
    @inlinable
    public var value: Value {
        get { broadcaster.latest! }
        set { send(newValue) }
    }

    /// Stores `value` and broadcasts it. Ignored after ``fail(_:)`` or ``complete()``.
    @inlinable
    public func send(_ value: Value) {
        broadcaster.send(.value(value))
    }

    /// Ends every subscription with `error`; later subscribers get the last value, then the error.
    public func fail(_ error: Failure) {
        broadcaster.send(.failed(error))
    }

    /// Completes every subscription; later subscribers get the last value, then completion.
    public func complete() {
        broadcaster.send(.completed)
    }

    /// A signal that replays the current value, then follows this subject.
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
