import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// A feed of 200,000 entries, through the built binary: output starts at once, and Ctrl-C
/// stops a one-shot command with status 130 and a follow with status 0.
@Suite(.ownThread)
struct LargeFeedTests {
    /// A database whose journal has `entries` insert entries, written by the sqlite3 shell.
    static func largeFeed(in directory: TemporaryDirectory, entries: Int = 200_000) throws -> String {
        let path = try exampleDatabase(in: directory)
        let result = try runProgram(URL(fileURLWithPath: sqlite3Path()), [path, ".timeout 5000", """
            WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < \(entries + 99))
            INSERT INTO orders (id, purchase_num, status, note) SELECT i, i % 50, 'open', 'bulk order ' || i FROM n;
            """])
        try #require(result.status == 0, "\(result.error)")
        return path
    }

    @Test(arguments: [["changes"], ["changes", "--json"], ["get", "orders"]])
    func outputStartsAtOnceAndCtrlCStopsWith130(arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let path = try Self.largeFeed(in: directory)
        let started = Date()
        let child = try ChildProcess(signalstoreExecutable, arguments + ["--db", path])
        #expect(child.output.wait(timeout: 10) { $0.contains("\n") })
        let firstLine = Date().timeIntervalSince(started)
        #expect(firstLine < 5, "first line after \(firstLine) s")
        child.send(SIGINT)
        let signalled = Date()
        let status = child.waitForExit(timeout: 10)
        let stopped = Date().timeIntervalSince(signalled)
        if arguments == ["get", "orders"], status == 0 {
            return   // the rows were all printed before the signal arrived
        }
        #expect(status == 130, "\(child.error.value)")
        #expect(stopped < 2, "stopped \(stopped) s after Ctrl-C")
        #expect(child.error.value.isEmpty)
    }

    @Test func ctrlCDuringAFollowThroughHistoryEndsWith0() throws {
        let directory = TemporaryDirectory()
        let path = try Self.largeFeed(in: directory)
        let child = try ChildProcess(signalstoreExecutable, ["changes", "--follow", "--db", path])
        #expect(child.output.wait(timeout: 10) { $0.contains("\n") })
        child.send(SIGINT)
        #expect(child.waitForExit(timeout: 10) == 0)
    }

    @Test func theWholeFeedStreamsInOrder() throws {
        let directory = TemporaryDirectory()
        let path = try Self.largeFeed(in: directory, entries: 2_500)
        let result = try runBinary(["changes", "--json", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        let entries = try #require(try parseJSON(result.output) as? [[String: Any]], "output of \(result.output.utf8.count) bytes ends with \(result.output.suffix(200))")
        #expect(entries.count == 2 + 2_500)
        let seqs = entries.compactMap { $0["seq"] as? Int }
        #expect(seqs.first == 1 && seqs.last == 2_502 && zip(seqs, seqs.dropFirst()).allSatisfy { $0 + 1 == $1 }, "seqs in order without gap")
        let get = try runBinary(["get", "orders", "--json", "--db", path])
        let rows = try #require(try parseJSON(get.output) as? [[String: Any]], "status \(get.status): \(get.error)")
        let ids = rows.compactMap { $0["id"] as? Int }
        #expect(ids == [1, 2] + Array(100..<2_600), "every row once, in key order, across pages")
        let human = try runBinary(["get", "orders", "--limit", "1500", "--db", path])
        #expect(human.outputLines.count == 1 + 1_500, "status \(human.status): \(human.error)")
        let limited = try runBinary(["changes", "--since", "1000", "--limit", "1500", "--db", path])
        #expect(limited.outputLines.count == 1_500, "status \(limited.status): \(limited.error)")
        #expect(limited.outputLines.first?.hasPrefix("#1001 ") == true)
        #expect(limited.outputLines.last?.hasPrefix("#2500 ") == true)
    }
}
