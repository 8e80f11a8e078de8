#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore
import Signals

/// The one reader of new commits for every live client of an inspector: it reads each new
/// entry once, groups entries into ``FeedGroup``s (values cut, members bounded), and hands the
/// same groups to every client's queue. A client that does not keep up is skipped ahead: past
/// ``queueLimit`` waiting groups its queue becomes one "skipped" range, so a slow or stalled
/// browser costs a bounded amount of memory and never slows the others.
final class LiveFeed: Sendable {
    /// The most groups waiting for one client before it is skipped ahead.
    static let queueLimit = 64
    /// The most entries read in one query.
    static let batch = 200
    /// The most entries one wake-up reads before skipping every client to the newest (a
    /// backlog this large is not worth showing live; the feed page lists it).
    static let readLimit = 50_000
    /// How often an idle feed wakes its clients: each sends a comment, so a closed connection
    /// is noticed, and the database file is checked.
    static let heartbeat = Duration.seconds(2)

    /// What a client takes from its queue at a wake-up.
    enum Delivery {
        case group(FeedGroup)
        /// Entries `from` through `through` were passed over.
        case skipped(from: Int64, through: Int64)
        /// The database file was deleted or replaced: the stream ends with this message.
        case gone(String)
    }

    /// One connected client's queue.
    fileprivate struct Client {
        var queue: [Delivery] = []
        var queuedGroups = 0
        let wake: AsyncStream<Void>.Continuation
    }

    private struct State {
        var cursor: Int64 = 0
        var clients: [Int: Client] = [:]
        var nextID = 0
        var started = false
        var gone: String?
    }

    private let store: Store
    private let writes: Bool
    private let file: DatabaseFileIdentity?
    private let state = Locked(State())

    /// A feed of `store`'s commits whose rows offer revert when `writes`, that ends when `file`
    /// is deleted or replaced.
    init(store: Store, writes: Bool, file: DatabaseFileIdentity?) {
        self.store = store
        self.writes = writes
        self.file = file
    }

    /// Registers a client: it gets every group after the returned seq (the feed's position when
    /// it joined), through `wakeUps`. Starts the reader with the first client.
    func join() throws(StoreError) -> (id: Int, joinedAt: Int64, wakeUps: AsyncStream<Void>) {
        let head = try store.lastChangeSeq
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (id, cursor, start) = state.withLock { state in
            if !state.started { state.cursor = head }
            defer { state.started = true }
            state.nextID += 1
            state.clients[state.nextID] = Client(wake: continuation)
            if let gone = state.gone { state.clients[state.nextID]?.queue = [.gone(gone)] }
            return (state.nextID, state.cursor, !state.started)
        }
        if start { startReading() }
        continuation.yield()
        return (id, cursor, stream)
    }

    /// Removes a client whose connection ended.
    func leave(_ id: Int) {
        let client = state.withLock { $0.clients.removeValue(forKey: id) }
        client?.wake.finish()
    }

    /// What waits for client `id`, emptied.
    func take(_ id: Int) -> [Delivery] {
        state.withLock { state in
            guard var client = state.clients[id] else { return [] }
            defer { client.queue = []; client.queuedGroups = 0; state.clients[id] = client }
            return client.queue
        }
    }

    /// The last seq read.
    var cursor: Int64 { state.withLock { $0.cursor } }

    /// Reads after every commit and every heartbeat, for as long as the inspector runs.
    private func startReading() {
        let wakeUps = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let commits = store.committedSeqs().subscribe(onValue: { _ in wakeUps.continuation.yield() }, onCompleted: { wakeUps.continuation.finish() })
        Task { [self] in
            let beat = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: Self.heartbeat)
                    wakeUps.continuation.yield()
                }
            }
            defer { beat.cancel() }
            for await _ in wakeUps.stream {
                if let gone = file?.change {
                    publish([.gone(gone)], goneMessage: gone)
                    break
                }
                publish(readNew())
            }
            commits.dispose()
        }
    }

    /// The groups of the entries after the cursor, moving it; a journal pruned past the cursor
    /// or a backlog over ``readLimit`` becomes a skipped range.
    private func readNew() -> [Delivery] {
        var cursor = state.withLock { $0.cursor }
        var deliveries: [Delivery] = []
        do {
            var builder = FeedGroup.Builder(columnOrders: try SchemaReader.columnOrders(store), writes: writes)
            var read = 0
            while true {
                let entries: [Change]
                do {
                    entries = try store.journalEntries(after: cursor, limit: Self.batch)
                } catch {
                    guard case .changeFeedGap(_, let prunedThrough) = error else { throw error }
                    deliveries += builder.finish().map { [.group($0)] } ?? []
                    deliveries.append(.skipped(from: cursor + 1, through: prunedThrough))
                    cursor = prunedThrough
                    continue
                }
                deliveries += builder.add(entries).map(Delivery.group)
                cursor = entries.last?.seq ?? cursor
                read += entries.count
                if entries.count < Self.batch { break }
                if read >= Self.readLimit {
                    let head = try store.lastChangeSeq
                    deliveries += builder.finish().map { [.group($0)] } ?? []
                    deliveries.append(.skipped(from: cursor + 1, through: head))
                    cursor = head
                    break
                }
            }
            deliveries += builder.finish().map { [.group($0)] } ?? []
        } catch {
            // A read that failed (the file is busy being replaced, say) is tried again at the
            // next wake-up; what was read so far is delivered.
        }
        state.withLock { $0.cursor = cursor }
        return deliveries
    }

    /// Appends `deliveries` to every client's queue and wakes them all (a heartbeat, when
    /// empty); a client over ``queueLimit`` is skipped ahead.
    private func publish(_ deliveries: [Delivery], goneMessage: String? = nil) {
        let wakes = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            if let goneMessage { state.gone = goneMessage }
            for id in state.clients.keys {
                state.clients[id]?.append(deliveries, cursor: state.cursor)
            }
            return state.clients.values.map(\.wake)
        }
        for wake in wakes { wake.yield() }
    }
}

extension LiveFeed.Client {
    /// Queues `deliveries`; past the limit, what waits becomes one skipped range through
    /// `cursor` (a message that the file is gone is always kept).
    fileprivate mutating func append(_ deliveries: [LiveFeed.Delivery], cursor: Int64) {
        queue += deliveries
        queuedGroups += deliveries.count
        guard queuedGroups > LiveFeed.queueLimit else { return }
        let first = queue.lazy.compactMap { delivery -> Int64? in
            switch delivery {
            case .group(let group): group.from
            case .skipped(let from, _): from
            case .gone: nil
            }
        }.first ?? cursor
        let gone = queue.filter { if case .gone = $0 { true } else { false } }
        queue = [.skipped(from: first, through: cursor)] + gone
        queuedGroups = 1
    }
}
#endif
