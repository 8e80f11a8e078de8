extension Signal where Value: Sendable {
    /// The signal's values as an `AsyncSequence`.
    ///
    /// Iterating subscribes; ending the loop, or cancelling its task, disposes the subscription.
    /// A failure is thrown from the loop (when `Failure` is `Never`, no `try` is needed).
    /// Values that arrive faster than the loop consumes them are buffered without limit.
    /// ```swift
    /// for await count in counter.signal.values { print(count) }
    /// ```
    public var values: SignalValues<Value, Failure> {
        SignalValues(signal: self)
    }
}

/// An `AsyncSequence` over the values of a ``Signal``; see ``Signal/values``.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// Each value of the signal.
    public typealias Element = Value

    let signal: Signal<Value, Failure>

    /// Starts a subscription for one iteration.
    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: AsyncEventBuffer(signal))
    }

    /// The iterator of ``SignalValues``; it owns the subscription.
    public struct Iterator: AsyncIteratorProtocol {
        let buffer: AsyncEventBuffer<Value, Failure>

        /// The next value; `nil` after completion or cancellation.
        /// - Throws: The signal's failure.
        public mutating func next() async throws(Failure) -> Value? {
            try await buffer.next(isolation: nil)
        }

        /// The next value, waited for on the caller's actor; see ``next()``.
        ///
        /// A loop on the main actor takes each value there, without passing through the shared
        /// thread pool, so it keeps up even while that pool is busy.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            try await buffer.next(isolation: actor)
        }
    }
}

/// Buffers a subscription's events until an async iterator asks for them.
final class AsyncEventBuffer<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var events: [Event<Value, Failure>] = []
        var waiter: CheckedContinuation<Event<Value, Failure>, Never>?
        var isFinished = false
    }

    private let state = Locked(State())
    private let subscription = SerialDisposable()

    init(_ signal: Signal<Value, Failure>) {
        subscription.inner = signal.subscribe { [weak self] event in self?.push(event) }
    }

    deinit {
        subscription.dispose()
    }

    private func push(_ event: Event<Value, Failure>) {
        let waiter = state.withLock { state -> CheckedContinuation<Event<Value, Failure>, Never>? in
            guard let waiter = state.waiter else {
                state.events.append(event)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// The next event's value, waited for on `actor` (no actor: on the shared thread pool).
    func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
        let event = await withTaskCancellationHandler(operation: {
            await withCheckedContinuation(isolation: actor) { continuation in
                let ready = state.withLock { state -> Event<Value, Failure>? in
                    if state.isFinished || Task.isCancelled { return .completed }
                    if !state.events.isEmpty { return state.events.removeFirst() }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }, onCancel: {
            subscription.dispose()
            push(.completed)
        }, isolation: actor)
        switch event {
        case .value(let value):
            return value
        case .completed:
            finish()
            return nil
        case .failed(let error):
            finish()
            throw error
        }
    }

    private func finish() {
        state.withLock { $0.isFinished = true }
        subscription.dispose()
    }
}
