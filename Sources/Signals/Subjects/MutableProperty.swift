/// A mutable value whose changes can be observed: a settable current value and a signal that
/// replays it.
///
/// ```swift
/// let title = MutableProperty("Draft")
/// title.signal.subscribe(onValue: { label.text = $0 })   // "Draft" at once
/// title.value = "Final"                                  // then "Final"
/// ```
/// Its signal never fails; it completes when the property is released. Pair two properties
/// with ``bind(_:_:)`` for a two-way binding.
public final class MutableProperty<Value>: SignalSource {
    @usableFromInline let broadcaster: Broadcaster<Value, Never>

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        broadcaster = Broadcaster(replayLimit: 1, initial: value)
    }

    deinit {
        broadcaster.send(.completed)
    }

    /// The current value. Setting it stores the value, then notifies every subscriber.
    @inlinable
    public var value: Value {
        get { broadcaster.latest! }
        set { broadcaster.send(.value(newValue)) }
    }

    /// A signal that replays the current value, then every change, and completes when the
    /// property is released.
    @inlinable
    public var signal: Signal<Value, Never> {
        let broadcaster = self.broadcaster
        return Signal { subscriber in broadcaster.subscribe(subscriber) }
    }

    /// How many subscriptions are attached now.
    public var subscriberCount: Int {
        broadcaster.subscriberCount
    }
}
