/// The receiving end of one subscription, handed to a ``Signal``'s generator.
///
/// A generator calls ``send(_:)`` for each value and then at most one of ``fail(_:)`` or
/// ``complete()``. It may call them from any thread, concurrently and re-entrantly: the
/// subscriber serializes delivery, queues sends that arrive while a delivery is in progress, and
/// ignores everything after the first terminal event or after the subscription was disposed.
///
/// ```swift
/// let ticks = Signal<Int, Never> { subscriber in
///     subscriber.send(1)
///     subscriber.send(2)
///     subscriber.complete()
///     return AnyDisposable()
/// }
/// ```
public final class Subscriber<Value, Failure: Error>: @unchecked Sendable {
    // @unchecked: `handler` is read and written only inside `core`'s serialized section, which
    // admits one thread at a time (see `SubscriptionCore`).
    @usableFromInline let core: SubscriptionCore
    /// The stage's handler: `nil` for the last stage, which calls its `Sink` directly; a handler
    /// that ignores every event once the stage has stopped. Stopping replaces the handler instead
    /// of setting a flag beside it, so a subscriber is 40 bytes, not 41, and takes a 48-byte
    /// block of the allocator instead of a 64-byte one: every subscription has one.
    // Touched only inside the serialized section: no dynamic exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline var handler: (@Sendable (Event<Value, Failure>) -> Void)?

    @inlinable
    init(core: SubscriptionCore, handler: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.core = core
        self.handler = handler
    }

    /// Creates the last stage of a subscription, which delivers to `sink`.
    @inlinable
    init(sink: Sink<Value, Failure>) {
        self.core = sink
        self.handler = nil
    }

    /// Creates a subscriber for an operator stage that shares `downstream`'s serialization.
    @inlinable
    package convenience init<V, F>(
        sharing downstream: Subscriber<V, F>,
        handler: @escaping @Sendable (Event<Value, Failure>) -> Void
    ) {
        self.init(core: downstream.core, handler: handler)
    }

    /// Sends a value.
    /// - Parameter value: The value to deliver.
    @inlinable
    public func send(_ value: Value) {
        receive(.value(value))
    }

    /// Ends the subscription with an error.
    /// - Parameter error: The failure to deliver.
    @inlinable
    public func fail(_ error: Failure) {
        receive(.failed(error))
    }

    /// Ends the subscription normally.
    @inlinable
    public func complete() {
        receive(.completed)
    }

    /// Sends any event: a value, a failure or completion.
    /// - Parameter event: The event to deliver.
    @inlinable
    public func receive(_ event: Event<Value, Failure>) {
        if core.enter(orEnqueue: { { self.forward(event) } }) {
            forward(event)
            core.leave()
        }
    }

    /// Whether the subscription has ended, so a long-running generator can stop early.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// Delivers `event` to this stage's handler. Call only inside the serialized section.
    @inlinable @inline(__always)
    package func forward(_ event: Event<Value, Failure>) {
        let handler = self.handler
        if event.isTerminal { stop() }
        if let handler {
            handler(event)
        } else {
            // The sink is borrowed, not retained and released around the call: this subscriber
            // keeps it alive (`core` is a constant), and a caller keeps this subscriber alive.
            // One expression: bound to a local first, the optimizer retained it again.
            Unmanaged.passUnretained(unsafeDowncast(core, to: Sink<Value, Failure>.self))._withUnsafeGuaranteedRef { $0.emit(event) }
        }
    }

    /// Makes this stage ignore everything from now on. Call only inside the serialized section.
    @usableFromInline
    func stop() {
        handler = { _ in }
    }

    /// Runs `work` inside the serialized section (now, or after the queued work).
    func perform(_ work: @escaping () -> Void) {
        core.run(work)
    }

    /// Claims delivery of a replay while a producer holds its lock; see `SubscriptionCore.claim`.
    @inlinable
    package func claim(first: Event<Value, Failure>, rest: [Event<Value, Failure>]) -> Bool {
        core.claim(first: { { self.forward(first) } }, rest: rest.map { event in { self.forward(event) } })
    }

    /// Finishes a successful ``claim(first:rest:)`` once the producer's lock is released.
    @inlinable
    package func deliverClaimed(_ first: Event<Value, Failure>) {
        forward(first)
        core.leave()
    }
}
