import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// `watch` and `changes --follow`, driven in-process: replay, live changes, stopping.
@Suite(.ownThread) struct StreamingCommandTests {
    /// Runs a streaming command on a background thread; returns its result once stopped.
    private func start(_ arguments: [String], output: CapturedText, stop: StopRequest) -> StopRequestResult {
        let result = StopRequestResult()
        Thread.detachNewThread {
            result.set(runCLI(arguments, stop: stop, output: output))
        }
        return result
    }

    @Test func watchPrintsCurrentValuesThenEachChangeUntilStopped() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let output = CapturedText(), stop = StopRequest()
        let result = start(["watch", "orders", "1", "purchase_num", "status", "--db", path], output: output, stop: stop)
        #expect(output.wait { $0.contains("now  orders  1  {purchase_num: 1, status: new}") })

        // Another connection (another store) writes: the watch sees it via the poller.
        let writer = try Store(path: path, migrations: packageMigrations)
        try writer.execute("UPDATE orders SET purchase_num = 4, note = 'x' WHERE id = 1")
        try writer.execute("UPDATE orders SET status = 'open' WHERE id = 2")
        try writer.execute("UPDATE orders SET status = 'paid' WHERE id = 1")
        writer.close()
        #expect(output.wait { $0.contains("orders  1  update  status: new → paid") })
        stop.fire()
        let finished = try #require(result.wait())
        #expect(finished.status == 0)
        let lines = output.value.split(separator: "\n").map(String.init)
        // The note column and order 2 are not watched.
        #expect(lines == [
            "now  orders  1  {purchase_num: 1, status: new}",
            "#4  orders  1  update  purchase_num: 1 → 4",
            "#6  orders  1  update  status: new → paid",
        ])
    }

    @Test func watchWithSinceReplaysTheFeedAsJSONLines() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let output = CapturedText(), stop = StopRequest()
        let result = start(["watch", "orders", "--since", "0", "--json", "--db", path], output: output, stop: stop)
        #expect(output.wait { $0.split(separator: "\n").count == 2 })
        #expect(runCLI(["delete", "orders", "1", "--db", path]).status == 0)
        #expect(output.wait { $0.split(separator: "\n").count == 3 })
        stop.fire()
        #expect(try #require(result.wait()).status == 0)
        let objects = try output.value.split(separator: "\n").map { try #require(try parseJSON(String($0)) as? [String: Any]) }
        #expect(objects.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(objects.map { $0["operation"] as? String } == ["insert", "insert", "delete"])
        #expect((objects[2]["row"] as? [String: Any])?["status"] as? String == "new")
    }

    @Test func changesFollowStopsAfterTheLimit() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let output = CapturedText(), stop = StopRequest()
        let result = start(["changes", "--follow", "--since", "2", "--limit", "2", "--json", "--db", path], output: output, stop: stop)
        #expect(runCLI(["set", "orders", "2", "purchase_num=3", "status=gone", "--db", path]).status == 0)
        let finished = try #require(result.wait())
        #expect(finished.status == 0)
        let seqs = try output.value.split(separator: "\n").map { try #require(try parseJSON(String($0)) as? [String: Any])["seq"] as? Int }
        #expect(seqs == [3, 4])
    }

    @Test func watchOfAMissingRowFails() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = runCLI(["watch", "orders", "99", "--db", path])
        #expect(result.status == 1)
        #expect(result.error == "error: table orders has no row with id '99'; list the rows with `signalstore get orders`\n")
    }
}

/// The result of a command running on another thread.
final class StopRequestResult: @unchecked Sendable {
    // @unchecked: `result` is read and written only while holding `condition`'s lock.
    private let condition = NSCondition()
    private var result: CLIResult?

    func set(_ value: CLIResult) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    /// The result, once the command returned (at most `timeout`).
    func wait(timeout: TimeInterval = 10) -> CLIResult? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while result == nil, condition.wait(until: deadline) {}
        return result
    }
}
