import Foundation
import Testing
@testable import SignalStore

/// Durable named consumers: they resume after what they acknowledged, across restarts and
/// SIGKILL, and pruning never deletes what one has not acknowledged.
@Suite("Durable feed consumers", .ownThread)
struct FeedConsumerTests {
    private func insertOrders(_ store: Store, _ ids: ClosedRange<Int>) throws {
        for id in ids { try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, 1, 'open')", arguments: [.integer(Int64(id))]) }
    }

    @Test func aConsumerResumesAfterWhatItAcknowledged() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("consumers.sqlite")
        var store = try Store(path: path, migrations: packageMigrations)
        try insertOrders(store, 1...5)
        let first = Locked<[Int64]>([])
        var subscription = store.changes(consumer: "uploader").subscribe(onValue: { change in first.withLock { $0.append(change.seq) } })
        #expect(first.withLock { $0 } == [1, 2, 3, 4, 5], "a new consumer gets every entry kept")
        try store.acknowledge(through: 3, consumer: "uploader")
        try store.acknowledge(through: 2, consumer: "uploader")   // never moves back
        subscription.dispose()
        store.close()

        store = try Store(path: path, migrations: packageMigrations)   // a restart
        try insertOrders(store, 6...6)
        let second = Locked<[Int64]>([])
        subscription = store.changes(consumer: "uploader").subscribe(onValue: { change in second.withLock { $0.append(change.seq) } })
        #expect(second.withLock { $0 } == [4, 5, 6], "resumes after seq 3, at least once")
        try insertOrders(store, 7...7)
        #expect(second.withLock { $0 } == [4, 5, 6, 7], "then live")
        #expect(try store.consumers == [FeedConsumer(name: "uploader", acknowledgedSeq: 3)])
        subscription.dispose()
        store.close()
    }

    @Test func pruningNeverDeletesWhatAConsumerHasNotAcknowledged() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try insertOrders(store, 1...10)
        let subscription = store.changes(consumer: "sync").subscribe(onValue: { _ in })
        try store.acknowledge(through: 4, consumer: "sync")
        #expect(throws: StoreError.consumerBehind(consumer: "sync", acknowledgedSeq: 4)) { try store.pruneChanges(through: 8) }
        #expect(try store.journalSummary().entries == 10, "nothing was pruned")
        #expect(try store.pruneChanges(through: 4) == 4)
        try store.removeConsumer("sync")
        #expect(try store.pruneChanges(through: 8) == 4, "a removed consumer holds nothing back")
        subscription.dispose()
    }

    @Test func mistakesAreClearErrors() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try insertOrders(store, 1...2)
        #expect(throws: StoreError.unknownConsumer("nobody")) { try store.acknowledge(through: 1, consumer: "nobody") }
        let subscription = store.changes(consumer: "a").subscribe(onValue: { _ in })
        #expect { try store.acknowledge(through: 99, consumer: "a") } throws: { error in
            (error as? StoreError)?.description == "cannot acknowledge seq 99 for consumer 'a': the last entry is seq 2; acknowledge entries it has received"
        }
        let failure = Locked<StoreError?>(nil)
        _ = store.changes(consumer: "").subscribe(onFailure: { error in failure.withLock { $0 = error } })
        #expect(failure.withLock { $0 }?.description == "a consumer's name must have 1 to 200 characters, not 0")
        subscription.dispose()
    }

    @Test func aKilledConsumerResumesWithoutLosingAnEntry() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("killed.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        // Enough entries that the consumer is far from done when it is killed.
        try store.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, 1, 'open' FROM n
            """)
        let helper = builtExecutable("StoreTestHelper")
        let first = try ChildProcess(helper, ["consume", path, packageMigrations.path, "uploader"])
        #expect(first.output.wait(timeout: 30) { $0.split(separator: "\n").count >= 300 })
        first.send(SIGKILL)
        _ = first.waitForExit()
        let printed = first.output.lines.compactMap { Int64($0) }
        let acknowledged = try #require(try store.consumers.first?.acknowledgedSeq)
        #expect(acknowledged >= 300 - 1 && acknowledged < 20_000, "killed mid-stream at \(acknowledged)")
        let second = try runProgram(helper, ["consume", path, packageMigrations.path, "uploader", "20000"])
        #expect(second.status == 0, "\(second.error)")
        let resumed = second.output.split(separator: "\n").compactMap { Int64($0) }
        #expect(resumed.first == acknowledged + 1, "resumes right after the acknowledgment")
        #expect(resumed.last == 20_000)
        #expect(Set(printed + resumed) == Set(1...20_000), "no entry lost")
        #expect(zip(resumed, resumed.dropFirst()).allSatisfy { $0 + 1 == $1 }, "in order, without gap")
        store.close()
    }
}

/// Pruning deletes in batches (so a tool can show progress) inside one transaction: every
/// entry through the seq goes, none after it, whatever the batch boundaries.
@Suite("Pruning in batches", .ownThread)
struct PruningBatchTests {
    @Test func aPruneOfManyBatchesDeletesExactlyThroughTheSeq() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120001)
            INSERT INTO orders (id, purchase_num, status) SELECT i, 1, 'open' FROM n
            """)
        #expect(try store.pruneChanges(through: 10) == 10)
        var progress: [Int] = []
        let deleted = try store.pruneChanges(through: 120_000) { progress.append($0) }
        #expect(deleted == 119_990)
        #expect(progress == [50_000, 100_000, 119_990], "one report per batch of 50,000 entries")
        let summary = try store.journalSummary()
        #expect(summary.entries == 1 && summary.prunedThrough == 120_000)
        #expect(try store.journalEntries(after: 120_000).map(\.seq) == [120_001])
    }
}
