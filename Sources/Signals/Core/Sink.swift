/// The end of a subscription chain: the core plus the user's callbacks.
///
/// The callbacks live in one of two subclasses, ``EventSink`` (one closure for every event) and
/// ``CallbackSink`` (a closure per kind of event), so that a subscription stores only the
/// closures it was given: with the four side by side every sink took the allocator's 128-byte
/// block, and now a `CallbackSink` takes a 112-byte one.
@usableFromInline
class Sink<Value, Failure: Error>: SubscriptionCore, @unchecked Sendable {
    // @unchecked: the subclasses' callbacks are read only inside the serialized section and
    // cleared by `releaseObserver()`, which runs once no delivery can start any more.

    @inlinable
    override init() {}

    /// Delivers an event to the observer; runs inside the serialized section.
    @inlinable
    final func emit(_ event: Event<Value, Failure>) {
        guard !isDisposed else { return }
        guard event.isTerminal else { return call(event) }
        guard let ended = markTerminated() else { return }
        call(event)
        ended.resource?.dispose()
    }

    /// Calls the observer's callback for `event`.
    ///
    /// Not an overridden method: a class method of a generic class is called through its vtable
    /// in its unspecialized form, which looks up generic metadata on every event. Comparing
    /// this sink's class with one of the two (whose metadata the caller caches after its first
    /// use) and calling the specialized code of that one costs a few instructions.
    @inlinable @inline(__always)
    final func call(_ event: Event<Value, Failure>) {
        if type(of: self) == CallbackSink<Value, Failure>.self {
            unsafeDowncast(self, to: CallbackSink<Value, Failure>.self).callback(for: event)
        } else {
            unsafeDowncast(self, to: EventSink<Value, Failure>.self).onEvent?(event)
        }
    }
}

/// A sink that calls one closure with every event.
@usableFromInline
final class EventSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    // @unchecked: see `Sink`. Exclusive by construction, so the dynamic exclusivity check is off.
    @exclusivity(unchecked) @usableFromInline var onEvent: (@Sendable (Event<Value, Failure>) -> Void)?

    @inlinable
    init(_ onEvent: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.onEvent = onEvent
    }

    @usableFromInline
    override func releaseObserver() {
        onEvent = nil
    }
}

/// A sink that calls a closure per kind of event.
@usableFromInline
final class CallbackSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    // @unchecked: see `Sink`. Exclusive by construction, so the dynamic exclusivity check, which
    // would run on every event in the caller's module, is off. The callbacks are kept in separate
    // properties, not in one enum value: calling one then copies (retains) only that one.
    @exclusivity(unchecked) @usableFromInline var onValue: (@Sendable (Value) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onFailure: (@Sendable (Failure) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onCompleted: (@Sendable () -> Void)?

    @inlinable
    init(
        onValue: @escaping @Sendable (Value) -> Void,
        onFailure: @escaping @Sendable (Failure) -> Void,
        onCompleted: @escaping @Sendable () -> Void
    ) {
        self.onValue = onValue
        self.onFailure = onFailure
        self.onCompleted = onCompleted
    }

    /// Calls the callback for `event`'s kind.
    @inlinable @inline(__always)
    func callback(for event: Event<Value, Failure>) {
        switch event {
        case .value(let value): onValue?(value)
        case .failed(let error): onFailure?(error)
        case .completed: onCompleted?()
        }
    }

    @usableFromInline
    override func releaseObserver() {
        onValue = nil
        onFailure = nil
        onCompleted = nil
    }
}
