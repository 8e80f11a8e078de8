#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore
import Signals

/// `/events`: the change feed after a seq as server-sent events, live, from every writer, with
/// the feed page's filters (`table`, `op`).
///
/// Entries written together come as one event (see ``FeedGroup``): an entry alone is an event
/// `change` whose id is its seq; several are an event `group` with their first entries, a
/// tally and a link to all of them, whose id is the last seq. A browser that reconnects sends
/// the last id and resumes after it.
///
/// Every client follows the inspector's one ``LiveFeed``, which reads each new entry once for
/// all of them. Only a client that starts behind the feed (`after`, or `Last-Event-ID`) reads
/// on its own, at most ``catchUpLimit`` entries, and is told of the rest by an event `skipped`
/// naming the seqs it passed over (a page shows a link to them), as a client that falls behind
/// the feed is.
enum FeedEvents {
    /// The most entries a client that starts behind reads before it skips to the live feed.
    static let catchUpLimit = 1_000

    static func response(_ inspector: Inspector, query: QueryString, lastEventID: String?) -> Response {
        let table = query["table"], operation = query["op"].flatMap(Change.Operation.init(rawValue:))
        let filters = QueryString([("table", table ?? ""), ("op", operation?.rawValue ?? "")])
        // After the later of the page's seq and the last event the browser got; from the
        // feed's position when neither is given.
        let given: Int64?
        do {
            let afterEvent = try lastEventID.map { text throws(CLIError) in try QueryString.number(text, named: "Last-Event-ID", in: 0...Int64.max) }
            given = [try query.number("after", in: 0...Int64.max), afterEvent].compactMap { $0 }.max()
        } catch {
            return Page.error(inspector, .badRequest, error.description)
        }
        let body = ResponseBody { writer in
            let live = inspector.live
            let (id, joinedAt, wakeUps) = try live.join()
            defer { live.leave(id) }
            var client = Client(table: table, operation: operation, filters: filters, cursor: given ?? joinedAt)
            try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
            if client.cursor < joinedAt {
                try await writer.write(ByteBuffer(string: try client.catchUp(through: joinedAt, inspector)))
            }
            for await _ in wakeUps {
                let (text, ended) = client.events(for: live.take(id))
                try await writer.write(ByteBuffer(string: text))
                if ended { break }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: body)
    }

    /// Where one client's stream is, and what it is shown.
    private struct Client {
        let table: String?
        let operation: Change.Operation?
        let filters: QueryString
        var cursor: Int64

        /// The events for what the live feed delivered, and whether the stream ends (the file
        /// is gone); a comment when there is nothing to send, so a closed connection is noticed.
        mutating func events(for deliveries: [LiveFeed.Delivery]) -> (text: String, ended: Bool) {
            var text = ""
            for delivery in deliveries {
                switch delivery {
                case .group(let group):
                    if let shown = group.filtered(table: table, operation: operation, after: cursor) { text += shown.event(filters) }
                    cursor = max(cursor, group.through)
                case .skipped(let from, let through):
                    guard through > cursor else { continue }
                    text += skipped(from: max(from, cursor + 1), through: through)
                    cursor = through
                case .gone(let message):
                    let json = JSONValue.object([("message", .string(message))])
                    return (text + "event: gone\ndata: \(json.rendered)\n\n", true)
                }
            }
            return (text.isEmpty ? ": idle\n\n" : text, false)
        }

        /// The events for the entries after the cursor through `head`, read by this client
        /// alone, at most ``catchUpLimit`` of them, then a skipped range up to `head`.
        mutating func catchUp(through head: Int64, _ inspector: Inspector) throws -> String {
            var builder = FeedGroup.Builder(columnOrders: try SchemaReader.columnOrders(inspector.store), writes: inspector.allowsWrites)
            var text = "", read = 0
            func show(_ groups: [FeedGroup]) {
                text += groups.compactMap { $0.filtered(table: table, operation: operation, after: 0)?.event(filters) }.joined()
            }
            while cursor < head, read < catchUpLimit {
                let entries: [Change]
                do {
                    entries = try inspector.store.journalEntries(after: cursor, limit: min(LiveFeed.batch, Int(head - cursor)))
                } catch {
                    guard case .changeFeedGap(_, let prunedThrough) = error else { throw error }
                    show(builder.finish().map { [$0] } ?? [])
                    text += skipped(from: cursor + 1, through: min(prunedThrough, head))
                    cursor = min(prunedThrough, head)
                    continue
                }
                guard let last = entries.last else { break }
                show(builder.add(entries.filter { $0.seq <= head }))
                cursor = min(last.seq, head)
                read += entries.count
            }
            show(builder.finish().map { [$0] } ?? [])
            if cursor < head { text += skipped(from: cursor + 1, through: head) }
            cursor = head
            return text
        }

        /// The event for entries passed over, with the id that resumes after them.
        private func skipped(from first: Int64, through last: Int64) -> String {
            let json = JSONValue.object([("from", .integer(first)), ("through", .integer(last))])
            return "event: skipped\nid: \(last)\ndata: \(json.rendered)\n\n"
        }
    }
}
#endif
