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
///
/// The fast path (nobody inside, nothing queued) is one compare-and-swap to enter and one to
/// leave. Queueing, attaching resources and ending take a mutex from ``LockPool``.
@usableFromInline
class SubscriptionCore: Disposable, @unchecked Sendable {
    // @unchecked: `flags` is atomic; `pending`, `pendingHead` and `resource` are guarded by this
    // object's mutex in `LockPool.shared`; subclasses keep their state inside the serialized
    // section (see `Sink`).

    @usableFromInline static let delivering = 1   // a thread is inside the serialized section
    @usableFromInline static let hasPending = 2    // work is queued; leaving must drain it
    @usableFromInline static let terminated = 4    // ended by a terminal event or dispose()

    @usableFromInline let flags = Atomic<Int>(0)
    // Guarded by the pool mutex: no dynamic exclusivity check needed.
    @exclusivity(unchecked) private var pending: ContiguousArray<() -> Void> = []
    @exclusivity(unchecked) private var pendingHead = 0
    @exclusivity(unchecked) private var resource: (any Disposable)?

    @usableFromInline
    init() {}

    /// Whether the subscription has ended: a terminal event was delivered or it was disposed.
    @inlinable
    final var isDisposed: Bool {
        flags.load(ordering: .acquiring) & Self.terminated != 0
    }

    /// Tries to enter the serialized section. Returns `true` if the caller is now inside and must
    /// call ``leave()`` when done; otherwise the work made by `makeWork` was queued (core busy) or
    /// dropped (subscription ended).
    @inlinable @inline(__always)
    final func enter(orEnqueue makeWork: () -> () -> Void) -> Bool {
        if flags.compareExchange(expected: 0, desired: Self.delivering, ordering: .acquiring).exchanged {
            return true
        }
        return enterOrEnqueue(makeWork)
    }

    @usableFromInline
    final func enterOrEnqueue(_ makeWork: () -> () -> Void) -> Bool {
        LockPool.shared.withLock(for: self) {
            claimLocked(first: makeWork, rest: [])
        }
    }

    /// Claims the serialized section for a replay made while a producer holds its own lock.
    /// `first` is delivered by the caller after it released that lock (if this returns `true`);
    /// `rest` is queued behind it, so nothing sent later can overtake the replay.
    @usableFromInline
    final func claim(first: () -> () -> Void, rest: [() -> Void]) -> Bool {
        LockPool.shared.withLock(for: self) {
            claimLocked(first: first, rest: rest)
        }
    }

    /// Enters if free (queueing `rest`), else queues `first` and `rest`. Pool lock held.
    private func claimLocked(first: () -> () -> Void, rest: [() -> Void]) -> Bool {
        while true {
            let state = flags.load(ordering: .acquiring)
            if state & Self.terminated != 0 { return false }
            let isBusy = state & Self.delivering != 0
            var desired = state | Self.delivering
            if isBusy || !rest.isEmpty { desired |= Self.hasPending }
            guard flags.compareExchange(expected: state, desired: desired, ordering: .acquiringAndReleasing).exchanged else {
                continue   // the thread inside left, or the subscription ended, meanwhile
            }
            if isBusy { pending.append(first()) }
            if !rest.isEmpty { pending.append(contentsOf: rest) }
            return !isBusy
        }
    }

    /// Leaves the serialized section, first running whatever was queued meanwhile.
    @inlinable @inline(__always)
    final func leave() {
        while !flags.compareExchange(expected: Self.delivering, desired: 0, ordering: .releasing).exchanged {
            guard let work = nextQueuedWork() else { return }
            work()
        }
    }

    /// The next queued work, or `nil` after leaving the section (and releasing the observer if
    /// the subscription ended while this thread was inside).
    @usableFromInline
    final func nextQueuedWork() -> (() -> Void)? {
        var drained: ContiguousArray<() -> Void> = []
        let (work, ended) = LockPool.shared.withLock(for: self) { () -> ((() -> Void)?, Bool) in
            let state = flags.load(ordering: .acquiring)
            if state & Self.terminated == 0, pendingHead < pending.count {
                let work = pending[pendingHead]
                pendingHead += 1
                if pendingHead == pending.count {
                    swap(&drained, &pending)
                    pendingHead = 0
                    flags.bitwiseAnd(~Self.hasPending, ordering: .releasing)
                }
                return (work, false)
            }
            swap(&drained, &pending)
            pendingHead = 0
            flags.bitwiseAnd(~(Self.delivering | Self.hasPending), ordering: .releasing)
            return (nil, state & Self.terminated != 0)
        }
        drained = []   // released here, outside the lock: closures may own objects with deinits
        if ended { releaseObserver() }
        return work
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
        let accepted = LockPool.shared.withLock(for: self) { () -> Bool in
            guard flags.load(ordering: .acquiring) & Self.terminated == 0 else { return false }
            self.resource = resource
            return true
        }
        if !accepted { resource.dispose() }
    }

    /// Marks the subscription ended. Returns the resources to dispose, or `nil` if it had
    /// already ended. The observer is released by whoever is last inside the section: now
    /// (`releaseNow`) or by the thread inside when it leaves.
    @usableFromInline
    final func markTerminated() -> (resource: (any Disposable)?, releaseNow: Bool)? {
        LockPool.shared.withLock(for: self) { () -> ((any Disposable)?, Bool)? in
            let previous = flags.bitwiseOr(Self.terminated, ordering: .acquiringAndReleasing).oldValue
            guard previous & Self.terminated == 0 else { return nil }
            defer { resource = nil }
            return (resource, previous & Self.delivering == 0)
        }
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
