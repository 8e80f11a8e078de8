/// A read-only observable value: a current ``value`` and a ``signal`` that replays it.
///
/// Hand out a `Property` where readers must not write:
/// ```swift
/// private let _count = MutableProperty(0)
/// var count: Property<Int> { Property(_count) }
/// ```
/// or derive one from a signal with ``init(initial:then:)``.
public final class Property<Value>: SignalSource {
    private let source: MutableProperty<Value>
    private let feed: (any Disposable)?

    /// A read-only view of `property`; it follows every change made to it.
    public init(_ property: MutableProperty<Value>) {
        source = property
        feed = nil
    }

    /// A property that never changes.
    public init(value: Value) {
        source = MutableProperty(value)
        feed = nil
    }

    /// A property that starts at `initial` and then takes every value of `signal`.
    ///
    /// The property keeps its subscription to `signal` until it is released.
    /// - Parameters:
    ///   - initial: The value until `signal` sends one.
    ///   - signal: The source of later values.
    public init(initial: Value, then signal: Signal<Value, Never>) {
        let property = MutableProperty(initial)
        source = property
        feed = signal.subscribe(onValue: { [weak property] value in property?.value = value })
    }

    deinit {
        feed?.dispose()
    }

    /// The current value.
    public var value: Value {
        source.value
    }

    /// A signal that replays the current value, then every change.
    public var signal: Signal<Value, Never> {
        source.signal
    }
}
