import Synchronization

/// The machinery shared by every subject: a list of subscribers, a replay buffer, and the
/// delivery rounds.
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
final class Broadcaster<Value, Failure: Error>: @unchecked Sendable {
    // @unchecked: all mutable state lives in `state`, guarded by its lock.

    /// One subscriber. `subscriber` is `nil` once removed (a tombstone keeps the ids sorted).
    @usableFromInline
    struct Entry {
        @usableFromInline let id: UInt64
        @usableFromInline let firstSeq: UInt64
        @usableFromInline var subscriber: Subscriber<Value, Failure>?

        @inlinable
        init(id: UInt64, firstSeq: UInt64, subscriber: Subscriber<Value, Failure>?) {
            self.id = id
            self.firstSeq = firstSeq
            self.subscriber = subscriber
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: ContiguousArray<Entry> = []
        @usableFromInline var tombstones = 0
        @usableFromInline var nextID: UInt64 = 0
        @usableFromInline var nextSeq: UInt64 = 0
        @usableFromInline var isDelivering = false
        @usableFromInline var pending: ContiguousArray<(event: Event<Value, Failure>, seq: UInt64)> = []
        @usableFromInline var pendingHead = 0
        @usableFromInline var buffer: ContiguousArray<Value>
        @usableFromInline var terminal: Event<Value, Failure>?
    }

    @usableFromInline let state: Locked<State>
    /// How many of the latest values a new subscriber receives first (0: none).
    @usableFromInline let replayLimit: Int

    init(replayLimit: Int, initial: [Value] = []) {
        self.replayLimit = replayLimit
        self.state = Locked(State(buffer: ContiguousArray(initial.suffix(replayLimit))))
    }

    /// The latest buffered value (for replaying subjects).
    @usableFromInline
    var latest: Value? {
        state.withLock { $0.buffer.last }
    }

    /// Whether a terminal event was sent.
    var isTerminated: Bool {
        state.withLock { $0.terminal != nil }
    }

    /// Sends an event to every subscriber; ignored after a terminal event.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        var round = state.withLock { state in startRound(with: event, in: &state) }
        while let (entries, event, seq) = round {
            for entry in entries where entry.firstSeq <= seq {
                entry.subscriber?.receive(event)
            }
            round = state.withLock { state in nextRound(in: &state) }
        }
    }

    @usableFromInline typealias Round = (entries: ContiguousArray<Entry>, event: Event<Value, Failure>, seq: UInt64)

    @inlinable
    func startRound(with event: Event<Value, Failure>, in state: inout State) -> Round? {
        guard state.terminal == nil else { return nil }
        let seq = state.nextSeq
        state.nextSeq &+= 1
        record(event, in: &state)
        if state.isDelivering {
            state.pending.append((event, seq))
            return nil
        }
        state.isDelivering = true
        return takeRound(event, seq, in: &state)
    }

    @inlinable
    func nextRound(in state: inout State) -> Round? {
        guard state.pendingHead < state.pending.count else {
            state.isDelivering = false
            if state.pendingHead > 0 {
                state.pending = []
                state.pendingHead = 0
            }
            return nil
        }
        let (event, seq) = state.pending[state.pendingHead]
        state.pendingHead += 1
        return takeRound(event, seq, in: &state)
    }

    /// The subscribers for one round; a terminal round also empties the list, releasing them.
    @inlinable
    func takeRound(_ event: Event<Value, Failure>, _ seq: UInt64, in state: inout State) -> Round {
        let entries = state.entries
        if event.isTerminal {
            state.entries = []
            state.tombstones = 0
        }
        return (entries, event, seq)
    }

    @inlinable
    func record(_ event: Event<Value, Failure>, in state: inout State) {
        switch event {
        case .value(let value) where replayLimit == 1:
            if state.buffer.isEmpty { state.buffer.append(value) } else { state.buffer[0] = value }
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
    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> any Disposable {
        let (claimed, first, id) = state.withLock { state in
            var replay = state.buffer.map { Event<Value, Failure>.value($0) }
            if let terminal = state.terminal { replay.append(terminal) }
            let first = replay.first
            let claimed = first.map { subscriber.claim(first: $0, rest: Array(replay.dropFirst())) } ?? false
            guard state.terminal == nil else { return (claimed, first, UInt64?.none) }
            let id = state.nextID
            state.nextID &+= 1
            state.entries.append(Entry(id: id, firstSeq: state.nextSeq, subscriber: subscriber))
            return (claimed, first, id)
        }
        if claimed, let first { subscriber.deliverClaimed(first) }
        guard let id else { return NoResource.shared }
        return BroadcastSubscription(self, id: id)
    }

    /// Removes the subscriber with `id`: a binary search, then a tombstone; the list is
    /// compacted when tombstones outnumber live entries, so removal stays cheap at any size.
    @usableFromInline
    func remove(id: UInt64) {
        let removed: Subscriber<Value, Failure>? = state.withLock { state in
            var low = 0
            var high = state.entries.count
            while low < high {
                let mid = (low + high) / 2
                if state.entries[mid].id < id { low = mid + 1 } else { high = mid }
            }
            guard low < state.entries.count, state.entries[low].id == id else { return nil }
            defer {
                state.entries[low].subscriber = nil
                state.tombstones += 1
                if state.tombstones * 2 > state.entries.count {
                    state.entries.removeAll { $0.subscriber == nil }
                    state.tombstones = 0
                }
            }
            return state.entries[low].subscriber
        }
        // Released here, outside the lock: its deinit may run user code.
        _ = removed
    }

    /// How many subscribers are attached (for tests and diagnostics).
    var subscriberCount: Int {
        state.withLock { $0.entries.count - $0.tombstones }
    }
}

/// The disposable returned for a subject subscription; detaches the subscriber.
@usableFromInline
final class BroadcastSubscription<Value, Failure: Error>: Disposable {
    private weak let broadcaster: Broadcaster<Value, Failure>?
    private let id: UInt64
    private let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(_ broadcaster: Broadcaster<Value, Failure>, id: UInt64) {
        self.broadcaster = broadcaster
        self.id = id
    }

    @usableFromInline
    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            broadcaster?.remove(id: id)
        }
    }

    @usableFromInline
    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }
}
