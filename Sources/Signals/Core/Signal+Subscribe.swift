extension Signal {
    /// Starts a subscription, calling `observer` with every event.
    ///
    /// Events arrive one at a time, on the thread that sent them (see ``observe(on:)`` to move
    /// them). The subscription lasts until a terminal event or until the returned disposable is
    /// disposed, whichever comes first; dropping the disposable does not end it.
    /// - Parameter observer: Called for each event, never concurrently with itself.
    /// - Returns: A disposable that ends the subscription.
    @inlinable @discardableResult
    public func subscribe(_ observer: @escaping @Sendable (Event<Value, Failure>) -> Void) -> any Disposable {
        start(EventSink(observer))
    }

    /// Starts a subscription with a closure per kind of event.
    ///
    /// ```swift
    /// let subscription = property.signal.subscribe(
    ///     onValue: { print("now", $0) },
    ///     onCompleted: { print("done") }
    /// )
    /// ```
    /// - Parameters:
    ///   - onValue: Called for each value.
    ///   - onFailure: Called once if the signal fails.
    ///   - onCompleted: Called once if the signal completes.
    /// - Returns: A disposable that ends the subscription.
    @inlinable @discardableResult
    public func subscribe(
        onValue: @escaping @Sendable (Value) -> Void = { _ in },
        onFailure: @escaping @Sendable (Failure) -> Void = { _ in },
        onCompleted: @escaping @Sendable () -> Void = {}
    ) -> any Disposable {
        start(CallbackSink(onValue: onValue, onFailure: onFailure, onCompleted: onCompleted))
    }

    /// Runs the generator for a new subscription ending in `sink`.
    @inlinable
    func start(_ sink: Sink<Value, Failure>) -> any Disposable {
        sink.attach(generator(Subscriber(sink: sink)))
        return sink
    }

    /// Subscribes on behalf of `object`, which is held weakly.
    ///
    /// `action` receives the object with each value while it is alive. The first event that
    /// finds the object gone ends the subscription and releases the closure, so an object can
    /// subscribe to a model without a retain cycle and without keeping the disposable.
    /// ```swift
    /// final class AuditLog: Sendable {
    ///     func record(_ count: Int) { print("count is now", count) }
    /// }
    /// let log = AuditLog()
    /// counter.signal.subscribe(with: log) { log, count in log.record(count) }
    /// ```
    /// `action` runs on the sending thread. For a view on the main actor, use
    /// ``bind(to:_:)`` or ``subscribeOnMain(onValue:onFailure:onCompleted:)`` instead: they also
    /// hold their target weakly, and their closures are main-actor isolated.
    /// - Parameters:
    ///   - object: The receiver, held weakly.
    ///   - action: Called with the object and each value.
    /// - Returns: A disposable that ends the subscription earlier.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        _ action: @escaping @Sendable (Object, Value) -> Void
    ) -> any Disposable {
        let target = WeakReference(object)
        let subscription = SerialDisposable()
        subscription.inner = subscribe { event in
            guard let object = target.object else {
                subscription.dispose()
                return
            }
            if case .value(let value) = event { action(object, value) }
        }
        return subscription
    }
}

/// A weak reference that can cross threads.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
