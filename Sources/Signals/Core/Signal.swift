/// A stream of values over time that may end with a failure or completion.
///
/// A signal is *cold*: it is a recipe, and its generator runs once for every subscription. The
/// generator receives a ``Subscriber`` to send events to and returns a ``Disposable`` that
/// releases whatever it started. Every subscription receives events in the grammar
/// `value* (failed | completed)?`.
///
/// ```swift
/// let numbers = Signal<Int, Never> { subscriber in
///     for n in 1...3 { subscriber.send(n) }
///     subscriber.complete()
///     return AnyDisposable()
/// }
/// numbers.map { $0 * 10 }.subscribe(onValue: { print($0) })   // 10, 20, 30
/// ```
///
/// Hot sources, such as ``PassthroughSubject`` and ``MutableProperty``, expose a signal whose
/// generator attaches the subscriber to the shared source. The Signal Contract article lists the rules
/// every signal follows.
public struct Signal<Value, Failure: Error>: Sendable {
    @usableFromInline let generator: @Sendable (Subscriber<Value, Failure>) -> any Disposable

    /// Creates a cold signal from a generator run once per subscription.
    /// - Parameter generator: Sends events to the subscriber and returns what to dispose when the
    ///   subscription ends (by a terminal event or by `dispose()`).
    @inlinable
    public init(_ generator: @escaping @Sendable (Subscriber<Value, Failure>) -> any Disposable) {
        self.generator = generator
    }

    /// Creates an operator stage: `makeHandler` is called once per subscription with the
    /// downstream subscriber and returns the handler for this signal's events. The handler runs
    /// inside the subscription's serialized section, so it may keep unsynchronized state.
    @inlinable
    func stage<NewValue, NewFailure>(
        _ makeHandler: @escaping @Sendable (Subscriber<NewValue, NewFailure>)
            -> @Sendable (Event<Value, Failure>) -> Void
    ) -> Signal<NewValue, NewFailure> {
        let upstream = self
        return Signal<NewValue, NewFailure> { downstream in
            upstream.generator(Subscriber(sharing: downstream, handler: makeHandler(downstream)))
        }
    }

    /// Subscribes an operator's inner subscriber to this signal; the inner subscriber shares the
    /// serialization of `downstream`.
    @inlinable
    func attach<V, F>(
        to downstream: Subscriber<V, F>,
        handler: @escaping @Sendable (Event<Value, Failure>) -> Void
    ) -> (subscriber: Subscriber<Value, Failure>, disposable: any Disposable) {
        let inner = Subscriber<Value, Failure>(sharing: downstream, handler: handler)
        return (inner, generator(inner))
    }
}

/// A disposable for generators that have nothing to release.
@usableFromInline
final class NoResource: Disposable {
    @usableFromInline static let shared = NoResource()
    @usableFromInline init() {}
    @usableFromInline func dispose() {}
    @usableFromInline var isDisposed: Bool { true }
}
