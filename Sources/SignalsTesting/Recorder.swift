import Foundation
import Signals

/// Records every event of one subscription, for assertions in tests.
///
/// ```swift
/// let recorder = subject.signal.map { $0 * 2 }.record()
/// subject.send(1)
/// subject.complete()
/// #expect(recorder.events == [.value(2), .completed])
/// ```
/// The recorder is thread-safe; ``waitForEvents(count:timeout:)`` waits on a condition
/// (not a sleep) for events that arrive on other threads.
public final class Recorder<Value, Failure: Error>: @unchecked Sendable {
    // @unchecked: the events and waiters are guarded by `state`'s lock (a LockedCondition);
    // `subscription` is set once, in `init`. Events need not be Sendable: the recorder hands
    // them to the test that made it.
    private struct State {
        var recorded: [Event<Value, Failure>] = []
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiterID = 0
    }

    private let state = LockedCondition(State())

    /// The subscription that feeds this recorder; dispose it to stop recording.
    public private(set) var subscription: any Disposable = AnyDisposable()

    /// Subscribes a new recorder to `signal`.
    public init(_ signal: Signal<Value, Failure>) {
        subscription = signal.subscribe { [weak self] event in self?.append(event) }
    }

    private func append(_ event: Event<Value, Failure>) {
        let satisfied = state.withLock { state in
            state.recorded.append(event)
            let count = state.recorded.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
    }

    /// Every event received so far, in order.
    public var events: [Event<Value, Failure>] {
        state.withLock { $0.recorded }
    }

    /// The values received so far, in order.
    public var values: [Value] {
        events.compactMap(\.value)
    }

    /// Whether the subscription completed.
    public var isCompleted: Bool {
        events.last.map { if case .completed = $0 { return true } else { return false } } ?? false
    }

    /// The error the subscription failed with, if it failed.
    public var failure: Failure? {
        events.last?.error
    }

    /// Whether a terminal event (failure or completion) arrived.
    public var isTerminated: Bool {
        events.last?.isTerminal ?? false
    }

    /// Waits until at least `count` events have arrived, or `timeout` passes.
    /// - Parameters:
    ///   - count: The number of events to wait for.
    ///   - timeout: The longest wait.
    /// - Returns: `true` if the events arrived in time.
    @discardableResult
    public func waitForEvents(count: Int, timeout: Duration = .seconds(10)) -> Bool {
        state.wait(until: { $0.recorded.count >= count }, timeout: timeout) { _, arrived in arrived }
    }
}

extension Recorder {
    /// Suspends until at least `count` events have arrived, or `timeout` passes, without
    /// blocking a thread: use this one in `async` tests, where a blocking wait could starve the
    /// tasks that produce the events.
    /// - Parameters:
    ///   - count: The number of events to wait for.
    ///   - timeout: The longest wait.
    /// - Returns: `true` if the events arrived in time.
    @discardableResult
    public func events(count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                guard state.recorded.count < count else { return nil }
                defer { state.nextWaiterID += 1 }
                state.waiters.append((state.nextWaiterID, count, continuation))
                return state.nextWaiterID
            }
            guard let id else { return continuation.resume(returning: true) }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expireWaiter(id)
            }
        }
    }

    private func expireWaiter(_ id: Int) {
        let expired = state.withLock { state in
            defer { state.waiters.removeAll { $0.id == id } }
            return state.waiters.first { $0.id == id }
        }
        expired?.continuation.resume(returning: false)
    }
}

extension Signal {
    /// Subscribes a `Recorder` that keeps every event, for tests.
    public func record() -> Recorder<Value, Failure> {
        Recorder(self)
    }
}

extension SignalSource {
    /// Subscribes a `Recorder` to this source's signal, for tests.
    public func record() -> Recorder<Value, Failure> {
        Recorder(signal)
    }
}
