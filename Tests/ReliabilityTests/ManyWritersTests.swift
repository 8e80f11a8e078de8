import Foundation
@testable import SignalStore
import Testing

/// Several processes write through the store while others watch the change feed.
@Suite(.ownThread) struct ManyWritersTests {
    @Test func fourWritingProcessesAndTwoWatchersLoseNothingAndSeeEverySeqOnce() throws {
        let writes = isHeavy ? 2_000 : 300
        let directory = TemporaryDirectory()
        let path = directory.path("many.sqlite")
        // Create the database first, so the processes do not race to migrate it.
        try Store(path: path, migrations: packageMigrations).close()

        let watchers = try (1...2).map { _ in try ChildProcess(reliabilityHelper, ["watcher", path, packageMigrations.path]) }
        for watcher in watchers { #expect(watcher.output.wait { $0.contains("ready") }) }
        let writers = try (1...4).map { tag in try ChildProcess(reliabilityHelper, ["writer", path, packageMigrations.path, "\(tag)", "\(writes)"]) }
        for writer in writers {
            let status = writer.waitForExit(timeout: 300)
            #expect(status == 0, "a writer failed: \(writer.error.value)")
        }

        let audit = try DatabaseAudit(path: path)
        let journal = try audit.journal().map(\.seq)
        let lastSeq = try #require(journal.last)
        for watcher in watchers {
            #expect(watcher.output.wait(timeout: 30) { $0.contains("seq \(lastSeq)\n") })
            watcher.send(SIGKILL)
            _ = watcher.waitForExit()
            let seen = watcher.output.lines.filter { $0.hasPrefix("seq ") }.compactMap { Int64($0.dropFirst(4)) }
            #expect(seen == journal, "a watcher missed, repeated or reordered entries")
        }

        // No write lost: each writer's final values are in the table, and the journal replays
        // to the table.
        let rows = try audit.rows(of: "orders")
        for writer in writers {
            for line in writer.output.lines where line.hasPrefix("final ") {
                let words = line.split(separator: " ", maxSplits: 3)
                let id = try #require(Int64(words[1]))
                #expect(rows[id]?["purchase_num"] == .integer(Int64(words[2]) ?? -1), "order \(id)")
                #expect(rows[id]?["status"] == .text(String(words[3])), "order \(id)")
            }
        }
        #expect(try audit.replayedRows(of: "orders") == rows)
        print("many writers: 4 processes × \(writes) writes, 2 watchers, \(journal.count) feed entries each seen exactly once, in order")
    }
}
