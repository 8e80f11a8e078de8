/// The end of a subscription chain: the core plus the user's callbacks.
@usableFromInline
final class Sink<Value, Failure: Error>: SubscriptionCore, @unchecked Sendable {
    // @unchecked: `observer` is read only inside the serialized section and cleared by
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
    // on every event in the caller's module, is turned off.
    @exclusivity(unchecked) @usableFromInline var observer: Observer?

    @inlinable
    init(_ observer: Observer) {
        self.observer = observer
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
        // Bind only the callback that is called, so the others are not retained per event.
        switch (observer, event) {
        case (.events(let observer)?, _): observer(event)
        case (.callbacks(let onValue, _, _)?, .value(let value)): onValue(value)
        case (.callbacks(_, let onFailure, _)?, .failed(let error)): onFailure(error)
        case (.callbacks(_, _, let onCompleted)?, .completed): onCompleted()
        case (nil, _): break
        }
    }

    @usableFromInline
    override func releaseObserver() {
        observer = nil
    }
}
