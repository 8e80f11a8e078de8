/// The end of a subscription chain: the core plus the user's callbacks.
@usableFromInline
final class Sink<Value, Failure: Error>: SubscriptionCore, @unchecked Sendable {
    // @unchecked: the callbacks are read only inside the serialized section and cleared by
    // `releaseObserver()`, which runs once no delivery can start any more.

    /// The user's callbacks, stored without an extra wrapper allocation.
    @usableFromInline
    enum Observer {
        case events(@Sendable (Event<Value, Failure>) -> Void)
        case callbacks(
            onValue: @Sendable (Value) -> Void,
            onFailure: @Sendable (Failure) -> Void,
            onCompleted: @Sendable () -> Void
        )
    }

    // Exclusive by construction (see above), so the dynamic exclusivity check, which would run
    // on every event in the caller's module, is turned off. The callbacks are kept in separate
    // properties, not in one `Observer` value: calling one then copies (retains) only that one,
    // where copying the enum out of the object retained all three on every event.
    @exclusivity(unchecked) @usableFromInline var onEvent: (@Sendable (Event<Value, Failure>) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onValue: (@Sendable (Value) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onFailure: (@Sendable (Failure) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onCompleted: (@Sendable () -> Void)?

    @inlinable
    init(_ observer: Observer) {
        switch observer {
        case .events(let onEvent):
            self.onEvent = onEvent
        case .callbacks(let onValue, let onFailure, let onCompleted):
            self.onValue = onValue
            self.onFailure = onFailure
            self.onCompleted = onCompleted
        }
    }

    /// Delivers an event to the observer; runs inside the serialized section.
    @inlinable
    func emit(_ event: Event<Value, Failure>) {
        guard !isDisposed else { return }
        guard event.isTerminal else { return call(event) }
        guard let ended = markTerminated() else { return }
        call(event)
        ended.resource?.dispose()
    }

    @inlinable @inline(__always)
    func call(_ event: Event<Value, Failure>) {
        if let onEvent { return onEvent(event) }
        switch event {
        case .value(let value): onValue?(value)
        case .failed(let error): onFailure?(error)
        case .completed: onCompleted?()
        }
    }

    @usableFromInline
    override func releaseObserver() {
        onEvent = nil
        onValue = nil
        onFailure = nil
        onCompleted = nil
    }
}
