import Dispatch

/// Delivers one subscription's events to main-actor callbacks, in order: at once when an event
/// arrives on the main queue while none of this subscription's events waits, otherwise through
/// its own first-in, first-out line that the main queue works through.
///
/// Events reach ``receive(_:)`` one at a time (the subscription serializes them), from any
/// thread. Disposing on the main actor drops whatever still waits.
@usableFromInline
final class MainActorDelivery<Value: Sendable, Failure: Error>: Disposable, @unchecked Sendable {
    // @unchecked: the mutable state lives in `state`, guarded by its lock; `callbacks` is a
    // main-actor object, called only on the main actor; `upstream` is a thread-safe disposable.

    @usableFromInline
    struct State {
        @usableFromInline var waiting: ContiguousArray<Event<Value, Failure>> = []
        /// The first waiting event not delivered yet.
        @usableFromInline var next = 0
        /// Whether the main queue is delivering this subscription's events now.
        @usableFromInline var isRunning = false
        /// Whether a turn on the main queue has been asked for and has not started.
        @usableFromInline var turnRequested = false
        @usableFromInline var isDisposed = false

        @usableFromInline init() {}
    }

    /// What `receive` does once the lock is released.
    @usableFromInline
    enum Step {
        case deliverNow, requestTurn, nothing
    }

    @usableFromInline let state = Locked(State())
    @usableFromInline let callbacks: MainActorCallbacks<Value, Failure>
    @usableFromInline let upstream = SerialDisposable()

    @inlinable
    init(_ callbacks: MainActorCallbacks<Value, Failure>) {
        self.callbacks = callbacks
    }

    /// Takes the subscription's next event.
    @inlinable
    func receive(_ event: Event<Value, Failure>) {
        let onMain = MainScheduler.isOnMainQueue
        let step = state.withLock { state -> Step in
            if state.isDisposed { return .nothing }
            if onMain, !state.isRunning, state.next == state.waiting.count {
                state.isRunning = true
                return .deliverNow
            }
            state.waiting.append(event)
            if state.isRunning || state.turnRequested { return .nothing }
            state.turnRequested = true
            return .requestTurn
        }
        switch step {
        case .deliverNow:
            let callbacks = callbacks
            MainActor.assumeIsolated { callbacks.receive(event) }
            deliverWaiting()
        case .requestTurn:
            requestTurn()
        case .nothing:
            break
        }
    }

    /// Asks the main queue for a turn to deliver the waiting events.
    @inlinable
    func requestTurn() {
        DispatchQueue.main.async { [self] in
            let start = state.withLock { state -> Bool in
                state.turnRequested = false
                guard !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if start { deliverWaiting() }
        }
    }

    /// Delivers waiting events one at a time, the lock released during each, until none waits.
    /// Runs on the main queue with `isRunning` set.
    @inlinable
    func deliverWaiting() {
        while let event = state.withLock({ state -> Event<Value, Failure>? in
            guard !state.isDisposed, state.next < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: !state.isDisposed)
                state.next = 0
                state.isRunning = false
                return nil
            }
            defer { state.next += 1 }
            return state.waiting[state.next]
        }) {
            let callbacks = callbacks
            MainActor.assumeIsolated { callbacks.receive(event) }
        }
    }

    /// Ends the subscription; events still waiting are dropped.
    @inlinable
    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.waiting = []
            state.next = 0
        }
        upstream.dispose()
    }

    @inlinable
    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }
}
