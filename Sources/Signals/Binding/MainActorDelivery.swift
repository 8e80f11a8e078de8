/// Delivers one subscription's events to main-actor callbacks through a ``MainQueueLine`` of
/// its own: at once when an event arrives on the main queue while none of this subscription's
/// events waits, otherwise in order through the main queue. Disposing on the main actor drops
/// whatever still waits.
@usableFromInline
final class MainActorDelivery<Value: Sendable, Failure: Error>: Disposable {
    @usableFromInline let line: MainQueueLine<Event<Value, Failure>>
    @usableFromInline let upstream = SerialDisposable()

    @inlinable
    init(_ callbacks: MainActorCallbacks<Value, Failure>) {
        line = MainQueueLine { event in
            MainActor.assumeIsolated { callbacks.receive(event) }
        }
    }

    /// Takes the subscription's next event (events arrive one at a time, from any thread).
    @inlinable
    func receive(_ event: Event<Value, Failure>) {
        line.enqueue(event)
    }

    /// Ends the subscription; events still waiting are dropped.
    @inlinable
    func dispose() {
        line.close()
        upstream.dispose()
    }

    @inlinable
    var isDisposed: Bool {
        line.isClosed
    }
}
