#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore
import SignalStoreTestSupport
import Testing
@testable import SignalStoreCLI

/// The inspector's one reader of new commits (issue 36, build item 2): a client that does not
/// read is skipped ahead, never buffered without bound. The test waits with `Task.sleep`: the
/// feed's reader runs on the cooperative pool, which a blocked test thread would starve.
@Suite("inspector's live feed")
struct LiveFeedTests {
    @Test func aClientThatDoesNotReadIsSkippedAheadNotBuffered() async throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let store = try Store(path: path, migrations: packageMigrations)
        defer { store.close() }
        let live = LiveFeed(store: store, writes: false, file: DatabaseFileIdentity(path: path))
        let (id, joinedAt, _) = try live.join()
        defer { live.leave(id) }
        // 100 commits far enough apart to be 100 lines, none of them taken by the client.
        for number in 1...100 {
            try store.execute("UPDATE orders SET purchase_num = ? WHERE id = 1", arguments: [.integer(Int64(number))])
            try await Task.sleep(for: .milliseconds(4))
        }
        let head = try store.lastChangeSeq
        let deadline = Date().addingTimeInterval(10)
        while live.cursor < head, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(live.cursor == head, "the feed read every commit")
        let waiting = live.take(id)
        #expect(waiting.count <= LiveFeed.queueLimit, "\(waiting.count) deliveries waited")
        guard case .skipped(let from, _)? = waiting.first else {
            Issue.record("the client was not skipped ahead: \(waiting.prefix(1))")
            return
        }
        #expect(from == joinedAt + 1)
        guard case .group(let last)? = waiting.last else {
            Issue.record("the newest line is not kept after the skip")
            return
        }
        #expect(last.through == head)
        #expect(live.take(id).isEmpty, "taking empties the queue")
    }
}
#endif
