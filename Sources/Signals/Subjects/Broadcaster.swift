import Synchronization

/// The machinery shared by every subject: a list of subscribers, a replay buffer, and the
/// delivery rounds. One lock's state, subscribe, send, deliver and remove are kept together so
/// the argument for their ordering reads in one place; a subscriber's entry
/// (``BroadcastEntry``) and its disposable (``BroadcastSubscription``) are in files of their own.
///
/// - A send made while a round is being delivered (from a callback or from another thread) is
///   queued and delivered, to every subscriber, after the current round: contract rule 4.
/// - Every event gets a sequence number when it is sent, and every subscriber records the number
///   of the first event it may receive. A subscriber added during a round therefore does not get
///   the value in flight (rule 8), and a replaying subscriber never gets a value twice or misses
///   one sent while it subscribes (rule 5).
/// - The replay is claimed in the subscriber's serialization while this lock is held, so a
///   value sent concurrently is delivered after the replay, never before.
@usableFromInline
package final class Broadcaster<Value, Failure: Error>: @unchecked Sendable {
    // @unchecked: all mutable state lives in `state`, guarded by its lock.

    @usableFromInline typealias Entry = BroadcastEntry

    @usableFromInline
    struct State {
        @usableFromInline var entries: ContiguousArray<Entry> = []
        @usableFromInline var tombstones = 0
        @usableFromInline var nextID: UInt64 = 0
        @usableFromInline var nextSeq: UInt64 = 0
        @usableFromInline var pending: ContiguousArray<(event: Event<Value, Failure>, seq: UInt64)> = []
        @usableFromInline var pendingHead = 0
        /// The replay buffer when `replayLimit` > 1.
        @usableFromInline var buffer: ContiguousArray<Value> = []
        /// The latest value when `replayLimit` == 1 (kept out of an array: no uniqueness check
        /// per send).
        @usableFromInline var current: Value?
        @usableFromInline var terminal: Event<Value, Failure>?
    }

    @usableFromInline let state: Locked<State>
    /// `delivering` while a thread delivers a round; `hasPending` while sends wait in `pending`.
    /// Set under the lock; the delivering thread clears `delivering` with one compare-and-swap
    /// when nothing is pending, so a send without contention takes the lock once.
    @usableFromInline let flags = Atomic<Int>(0)
    @usableFromInline static var delivering: Int { 1 }
    @usableFromInline static var hasPending: Int { 2 }
    /// How many subscribers are attached: set under the lock, read without it
    /// (``subscriberCount``, asked on every commit, costs a load instead of the lock).
    @usableFromInline let attached = Atomic<Int>(0)
    /// How many of the latest values a new subscriber receives first (0: none).
    @usableFromInline let replayLimit: Int

    package init(replayLimit: Int, initial: Value? = nil) {
        assert(MemoryLayout<Entry>.offset(of: \.subscriber) == Entry.subscriberOffset)
        self.replayLimit = replayLimit
        var state = State()
        if let initial, replayLimit == 1 { state.current = initial }
        self.state = Locked(state)
    }

    /// The latest value (for subjects that replay one value).
    @usableFromInline
    var latest: Value? {
        state.withLock { $0.current }
    }

    /// Whether a terminal event was sent.
    var isTerminated: Bool {
        state.withLock { $0.terminal != nil }
    }

    /// Sends an event to every subscriber; ignored after a terminal event.
    @inlinable
    package func send(_ event: Event<Value, Failure>) {
        var round = state.withLock { state in startRound(with: event, in: &state) }
        while let (entries, event, seq) = round {
            // The round's copy of the list is kept until the round has ended with a releasing
            // operation, the compare-and-swap or the next round's lock (see `ownEntries(_:)`).
            round = withExtendedLifetime(entries) {
                deliver(event, seq: seq, to: entries)
                if flags.compareExchange(expected: Self.delivering, desired: 0, ordering: .releasing).exchanged { return nil }
                return state.withLock { state in nextRound(in: &state) }
            }
        }
    }

    /// Delivers one round's event to the entries that may receive it.
    ///
    /// `entries` is this round's copy of the list: it keeps every subscriber in it alive until
    /// the round ends, since a removal meanwhile changes the state's list, which no longer shares
    /// storage with this copy. So each subscriber is borrowed from the copy's storage, not
    /// retained and released once per delivery: two atomic operations saved per subscriber.
    @inlinable
    func deliver(_ event: Event<Value, Failure>, seq: UInt64, to entries: ContiguousArray<Entry>) {
        entries.withUnsafeBufferPointer { buffer in
            guard let base = UnsafeRawPointer(buffer.baseAddress) else { return }
            for index in 0..<buffer.count where buffer[index].firstSeq <= seq {
                let entry = base + index * MemoryLayout<Entry>.stride
                guard let subscriber = entry.load(fromByteOffset: Entry.subscriberOffset, as: UnsafeRawPointer?.self) else {
                    continue   // a tombstone
                }
                Unmanaged<Subscriber<Value, Failure>>.fromOpaque(subscriber)._withUnsafeGuaranteedRef { $0.receive(event) }
            }
        }
    }

    @usableFromInline typealias Round = (entries: ContiguousArray<Entry>, event: Event<Value, Failure>, seq: UInt64)

    @inlinable
    func startRound(with event: Event<Value, Failure>, in state: inout State) -> Round? {
        guard state.terminal == nil else { return nil }
        let seq = state.nextSeq
        state.nextSeq &+= 1
        record(event, in: &state)
        // A compare-and-swap, not a load then a store: the delivering thread may clear
        // `delivering` at any moment without taking the lock.
        while true {
            let flags = self.flags.load(ordering: .acquiring)
            let isBusy = flags & Self.delivering != 0
            let desired = isBusy ? flags | Self.hasPending : Self.delivering
            guard self.flags.compareExchange(expected: flags, desired: desired, ordering: .acquiringAndReleasing).exchanged else {
                continue
            }
            if !isBusy { return takeRound(event, seq, in: &state) }
            state.pending.append((event, seq))
            return nil
        }
    }

    @inlinable
    func nextRound(in state: inout State) -> Round? {
        guard state.pendingHead < state.pending.count else {
            flags.store(0, ordering: .releasing)
            return nil
        }
        let (event, seq) = state.pending[state.pendingHead]
        state.pendingHead += 1
        if state.pendingHead == state.pending.count {
            state.pending = []
            state.pendingHead = 0
            flags.store(Self.delivering, ordering: .releasing)
        }
        return takeRound(event, seq, in: &state)
    }

    /// The subscribers for one round; a terminal round also empties the list, releasing them.
    @inlinable
    func takeRound(_ event: Event<Value, Failure>, _ seq: UInt64, in state: inout State) -> Round {
        let entries = state.entries
        if event.isTerminal {
            state.entries = []
            state.tombstones = 0
            attached.store(0, ordering: .releasing)
        }
        return (entries, event, seq)
    }

    @inlinable
    func record(_ event: Event<Value, Failure>, in state: inout State) {
        switch event {
        case .value(let value) where replayLimit == 1:
            state.current = value
        case .value(let value) where replayLimit > 1:
            if state.buffer.count == replayLimit { state.buffer.removeFirst() }
            state.buffer.append(value)
        case .value:
            break
        case .failed, .completed:
            state.terminal = event
        }
    }

    /// Adds a subscriber, first replaying the buffer (and the terminal event, if any).
    @inlinable
    package func subscribe(_ subscriber: Subscriber<Value, Failure>) -> any Disposable {
        let (claimed, first, id) = state.withLock { state -> (Bool, Event<Value, Failure>?, UInt64?) in
            let (first, rest) = replay(in: state)
            let claimed = first.map { subscriber.claim(first: $0, rest: rest) } ?? false
            guard state.terminal == nil else { return (claimed, first, nil) }
            let id = state.nextID
            state.nextID &+= 1
            ownEntries(&state)
            state.entries.append(Entry(id: id, firstSeq: state.nextSeq, subscriber: subscriber))
            attached.store(state.entries.count - state.tombstones, ordering: .releasing)
            return (claimed, first, id)
        }
        if claimed, let first { subscriber.deliverClaimed(first) }
        guard let id else { return NoResource.shared }
        return BroadcastSubscription(self, id: id)
    }

    /// The replay for a new subscriber: the buffered values, then the terminal event if any.
    /// Builds no array in the common cases (nothing or one value to replay).
    @inlinable
    func replay(in state: State) -> (first: Event<Value, Failure>?, rest: [Event<Value, Failure>]) {
        if let current = state.current {
            return (.value(current), state.terminal.map { [$0] } ?? [])
        }
        guard let firstValue = state.buffer.first else { return (state.terminal, []) }
        guard state.buffer.count > 1 || state.terminal != nil else { return (.value(firstValue), []) }
        var rest = state.buffer.dropFirst().map { Event<Value, Failure>.value($0) }
        if let terminal = state.terminal { rest.append(terminal) }
        return (.value(firstValue), rest)
    }

    /// Removes the subscriber with `id`: a binary search, then a tombstone. Trailing tombstones
    /// are dropped at once (the newest subscriber leaving is the common case) and the list is
    /// compacted when tombstones outnumber live entries, so removal stays cheap at any size.
    /// Removing an id twice does nothing.
    @inlinable
    func remove(id: UInt64) {
        let removed: AnyObject? = state.withLock { state in
            guard let index = Self.index(of: id, in: state.entries), let subscriber = state.entries[index].subscriber else {
                return nil
            }
            ownEntries(&state)
            state.entries[index].subscriber = nil
            state.tombstones += 1
            var end = state.entries.count
            while end > 0, state.entries[end - 1].subscriber == nil { end -= 1 }
            if end < state.entries.count {
                state.tombstones -= state.entries.count - end
                state.entries.removeSubrange(end...)
            }
            if state.tombstones * 2 > state.entries.count { Self.compact(&state) }
            attached.store(state.entries.count - state.tombstones, ordering: .releasing)
            return subscriber
        }
        // Released here, outside the lock: its deinit may release user objects.
        _ = removed
    }

    /// Makes the list's storage this state's own, ordered after the reads of every round that
    /// shared it. Call under the lock, before changing `entries`.
    ///
    /// A round reads its copy of the list outside the lock and, when nothing is pending, ends
    /// with a releasing compare-and-swap on `flags` instead of taking the lock again. The list is
    /// changed in place only once no round holds its storage: copy-on-write finds it unshared,
    /// and the reference count's order (the round's release, the check's acquire) puts the
    /// change after the round's reads. Thread Sanitizer does not see that order, inside the Swift
    /// runtime, and reported the change as a race with the round's reads. So the storage is made
    /// unshared first, and `flags` is loaded after, with acquiring order: the last round's
    /// compare-and-swap is then seen too, and the same order is stated where the sanitizer sees
    /// it. The load is a plain one on x86; loaded before the check, it could precede the end of
    /// a round that was still delivering. A round that ends by taking the lock for the next one
    /// is ordered by the lock, since `send` keeps its copy until then.
    @inlinable @inline(__always)
    func ownEntries(_ state: inout State) {
        state.entries.withUnsafeMutableBufferPointer { _ in }
        _ = flags.load(ordering: .acquiring)
    }

    /// Drops the tombstones, keeping the order of the live entries.
    @inlinable
    static func compact(_ state: inout State) {
        var kept = 0
        for index in state.entries.indices where state.entries[index].subscriber != nil {
            state.entries.swapAt(kept, index)
            kept += 1
        }
        state.entries.removeLast(state.entries.count - kept)
        state.tombstones = 0
    }

    /// Whether the subscriber with `id` is still attached.
    @inlinable
    func contains(id: UInt64) -> Bool {
        state.withLock { state in
            Self.index(of: id, in: state.entries).map { state.entries[$0].subscriber != nil } ?? false
        }
    }

    /// Binary search over the entries, which are sorted by id.
    @inlinable
    static func index(of id: UInt64, in entries: ContiguousArray<Entry>) -> Int? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low < entries.count && entries[low].id == id ? low : nil
    }

    /// How many subscribers are attached.
    package var subscriberCount: Int {
        attached.load(ordering: .acquiring)
    }
}
