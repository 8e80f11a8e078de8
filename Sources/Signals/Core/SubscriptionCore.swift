import Synchronization

/// The serialization domain of one subscription, shared by every operator stage in its chain.
///
/// All events of a subscription, from any number of upstream sources and threads, pass through
/// one core. The core lets exactly one thread at a time run *inside* it (the "serialized
/// section"); a thread that finds it busy queues its work as a closure and returns, and the
/// thread inside drains the queue, in FIFO order, before it leaves. This gives contract rules 2
/// (serialized delivery) and 4 (re-entrant sends queued, not nested) without ever holding a lock
/// while user code runs (rule 3). Operator state is touched only inside the serialized section,
/// so operators need no locks of their own.
@usableFromInline
class SubscriptionCore: Disposable, @unchecked Sendable {
    // @unchecked: `state` is guarded by its own lock; `isTerminatedFlag` is atomic; subclasses
    // keep their mutable state inside the serialized section (see `Sink`).
    private struct State {
        var isDelivering = false
        var isTerminated = false
        var pending: ContiguousArray<() -> Void> = []
        var pendingHead = 0
        var resource: (any Disposable)?
    }

    private let state = Locked(State())
    private let isTerminatedFlag = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    /// Whether the subscription has ended: a terminal event was delivered or it was disposed.
    @usableFromInline
    final var isDisposed: Bool { isTerminatedFlag.load(ordering: .acquiring) }

    /// Tries to enter the serialized section. Returns `true` if the caller is now inside and must
    /// call ``leave()`` when done; otherwise the work made by `makeWork` was queued (core busy) or
    /// dropped (subscription ended).
    @usableFromInline
    final func enter(orEnqueue makeWork: () -> () -> Void) -> Bool {
        state.withLock { state in
            if state.isTerminated { return false }
            if state.isDelivering {
                state.pending.append(makeWork())
                return false
            }
            state.isDelivering = true
            return true
        }
    }

    /// Claims the serialized section for a replay made while a producer holds its own lock.
    /// `first` is delivered by the caller after it released that lock (if this returns `true`);
    /// `rest` is queued behind it, so nothing sent later can overtake the replay.
    @usableFromInline
    final func claim(first: () -> () -> Void, rest: [() -> Void]) -> Bool {
        state.withLock { state in
            if state.isTerminated { return false }
            if state.isDelivering {
                state.pending.append(first())
                state.pending.append(contentsOf: rest)
                return false
            }
            state.isDelivering = true
            state.pending.append(contentsOf: rest)
            return true
        }
    }

    /// Leaves the serialized section, first running whatever was queued meanwhile.
    @usableFromInline
    final func leave() {
        while true {
            let step: LeaveStep = state.withLock { state in
                if state.pendingHead < state.pending.count, !state.isTerminated {
                    defer { state.pendingHead += 1 }
                    return .run(state.pending[state.pendingHead])
                }
                state.isDelivering = false
                if state.pendingHead > 0 || state.isTerminated {
                    state.pending = []
                    state.pendingHead = 0
                }
                // Decided under the lock: if the subscription ended while we were inside, the
                // disposer left the release to us; otherwise a later disposer does it.
                return state.isTerminated ? .release : .done
            }
            switch step {
            case .run(let work): work()
            case .release: releaseObserver(); return
            case .done: return
            }
        }
    }

    private enum LeaveStep {
        case run(() -> Void)
        case release
        case done
    }

    /// Runs `work` inside the serialized section: now if the core is free, otherwise after the
    /// work already queued. Dropped if the subscription has ended.
    @usableFromInline
    final func run(_ work: @escaping () -> Void) {
        if enter(orEnqueue: { work }) {
            work()
            leave()
        }
    }

    /// Takes ownership of the upstream resources; disposes them at once if already ended.
    @usableFromInline
    final func attach(_ resource: any Disposable) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isTerminated else { return false }
            state.resource = resource
            return true
        }
        if !accepted { resource.dispose() }
    }

    /// Marks the subscription ended. Returns the resources to dispose, or `nil` if it had
    /// already ended. The observer is released by whoever leaves the serialized section last.
    @usableFromInline
    final func markTerminated() -> (resource: (any Disposable)?, releaseNow: Bool)? {
        let result = state.withLock { state -> (resource: (any Disposable)?, releaseNow: Bool)? in
            guard !state.isTerminated else { return nil }
            state.isTerminated = true
            defer { state.resource = nil }
            return (state.resource, !state.isDelivering)
        }
        if result != nil { isTerminatedFlag.store(true, ordering: .releasing) }
        return result
    }

    @usableFromInline
    func dispose() {
        guard let ended = markTerminated() else { return }
        ended.resource?.dispose()
        if ended.releaseNow { releaseObserver() }
    }

    /// Drops the closures the subscriber holds; called once, when no delivery is in progress.
    @usableFromInline
    func releaseObserver() {}
}

/// The end of a subscription chain: the core plus the user's observer.
@usableFromInline
final class Sink<Value, Failure: Error>: SubscriptionCore, @unchecked Sendable {
    // @unchecked: `observer` is read and cleared only inside the serialized section, or by
    // `releaseObserver()` once no delivery can start any more.
    @usableFromInline var observer: ((Event<Value, Failure>) -> Void)?

    @inlinable
    init(_ observer: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.observer = observer
    }

    /// Delivers an event to the observer; runs inside the serialized section.
    @inlinable
    func emit(_ event: Event<Value, Failure>) {
        guard !isDisposed else { return }
        guard event.isTerminal else {
            observer?(event)
            return
        }
        guard let ended = markTerminated() else { return }
        observer?(event)
        ended.resource?.dispose()
    }

    @usableFromInline
    override func releaseObserver() {
        observer = nil
    }
}
