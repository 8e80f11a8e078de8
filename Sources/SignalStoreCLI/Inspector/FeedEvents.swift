#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore
import Signals

/// `/events`: the change feed after a seq as server-sent events, live, from every writer, with
/// the feed page's filters (`table`, `op`).
///
/// Each entry is an event `change` whose id is its seq, so a browser that reconnects resumes
/// after the last one it got. Memory stays bounded whatever the writers do: the stream listens
/// only to commit seqs (never holds a commit's entries), reads at most ``batch`` entries at a
/// time, and when more than ``catchUpLimit`` entries arrive at once it sends an event `skipped`
/// naming the seqs it passed over (a page shows a link to them) and goes on at the newest.
enum FeedEvents {
    /// The most entries read at a time.
    static let batch = 200
    /// The most entries sent for one wake-up before the stream skips to the newest.
    static let catchUpLimit = 1_000
    /// How often an idle stream wakes: to send a comment, so a closed connection is noticed, and
    /// to check that the database file is still the one opened.
    static let heartbeat = Duration.seconds(2)

    static func response(_ inspector: Inspector, query: QueryString, lastEventID: String?) -> Response {
        let table = query["table"], operation = query["op"].flatMap(Change.Operation.init(rawValue:))
        // After the later of the page's seq and the last event the browser got; from the
        // newest entry when neither is given.
        let given = [query["after"], lastEventID].compactMap { $0.flatMap(Int64.init) }.max()
        let store = inspector.store, writes = inspector.allowsWrites
        let body = ResponseBody { writer in
            let wakeUps = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let commits = store.committedSeqs().subscribe(onValue: { _ in wakeUps.continuation.yield() }, onCompleted: { wakeUps.continuation.finish() })
            let beat = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    wakeUps.continuation.yield()
                }
            }
            defer {
                commits.dispose()
                beat.cancel()
            }
            var stream = Stream(store: store, table: table, operation: operation, writes: writes, cursor: try given ?? store.lastChangeSeq)
            try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
            try await writer.write(ByteBuffer(string: try stream.next()))
            for await _ in wakeUps.stream {
                if let gone = inspector.fileChange {
                    // The connections read a file nobody writes any more: say so, and stop.
                    let json = JSONValue.object([("message", .string(gone))])
                    try await writer.write(ByteBuffer(string: "event: gone\ndata: \(json.rendered)\n\n"))
                    break
                }
                try await writer.write(ByteBuffer(string: try stream.next()))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: body)
    }

    /// Where one client's stream is, and what it sends next.
    private struct Stream {
        let store: Store
        let table: String?
        let operation: Change.Operation?
        let writes: Bool
        var cursor: Int64

        /// The events for the entries after the cursor (a comment when there are none),
        /// and the cursor moved past them.
        mutating func next() throws -> String {
            var text = ""
            var sent = 0
            let orders = try SchemaReader.columnOrders(store)
            while true {
                let entries: [Change]
                do {
                    entries = try store.journalEntries(after: cursor, limit: batch)
                } catch {
                    guard case .changeFeedGap(_, let prunedThrough) = error else { throw error }
                    text += skipped(from: cursor + 1, through: prunedThrough)
                    cursor = prunedThrough
                    continue
                }
                for entry in entries where entry.table == (table ?? entry.table) && entry.operation == (operation ?? entry.operation) {
                    let json = FeedEntry(change: entry, columnOrder: orders[entry.table] ?? []).json(writes: writes)
                    text += "event: change\nid: \(entry.seq)\ndata: \(json.rendered)\n\n"
                }
                cursor = entries.last?.seq ?? cursor
                sent += entries.count
                if entries.count < batch { break }
                if sent >= catchUpLimit {
                    let head = try store.lastChangeSeq
                    text += skipped(from: cursor + 1, through: head)
                    cursor = head
                    break
                }
            }
            return text.isEmpty ? ": idle\n\n" : text
        }

        /// The event for entries passed over, with the id that resumes after them.
        private func skipped(from first: Int64, through last: Int64) -> String {
            let json = JSONValue.object([("from", .integer(first)), ("through", .integer(last))])
            return "event: skipped\nid: \(last)\ndata: \(json.rendered)\n\n"
        }
    }
}
#endif
