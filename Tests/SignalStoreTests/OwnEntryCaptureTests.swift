import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

/// A model's property set commits alone and hands its journal entry over as it is written,
/// without reading it back: the feed and live objects still get every writer's entries once,
/// in seq order, and nothing a failed statement wrote.
@Suite("Own entries", .ownThread)
struct OwnEntryCaptureTests {
    /// A trigger that refuses large purchases after the journal's own trigger may have run.
    static let migrations = packageMigrationList + [
        Migration(version: 3, name: "refuse_large_purchases", sql: """
            CREATE TRIGGER refuse_large_purchases AFTER UPDATE OF purchase_num ON orders
            WHEN NEW.purchase_num > 100 BEGIN SELECT RAISE(ABORT, 'purchases over 100 need approval'); END;
            """),
    ]

    /// A store whose poller waits an hour, so that only its own writes read the journal.
    private func openStore() throws -> (Store, String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.path("own.sqlite")
        return (try Store(path: path, migrations: Self.migrations, pollInterval: .seconds(3_600)), path, directory)
    }


    private func described(_ changes: [Change]) -> [String] {
        changes.map { "\($0.table)[\($0.rowID)] \($0.column ?? "") = \($0.newValue?.description ?? "-")" }
    }

    @Test func aSetAfterAnUnseenForeignCommitPublishesBothOnceInSeqOrder() async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let first = Order(id: 1, purchaseNum: 1, status: "open")
        let second = Order(id: 2, purchaseNum: 1, status: "open")
        try store.insert(first)
        try store.insert(second)
        let feed = store.changes().record()
        let statuses = second.signal(for: \.status).record()
        try sqlite3(path, "UPDATE orders SET status = 'shipped' WHERE id = 2")

        first.purchaseNum = 5   // whichever of the set and the poller reads the shell's commit first
        await store.settle()    // the poller's thread may be the one delivering

        #expect(described(feed.values) == ["orders[2] status = 'shipped'", "orders[1] purchase_num = 5"])
        #expect(feed.values.map(\.seq) == [feed.values[0].seq, feed.values[0].seq + 1])
        #expect(statuses.values == ["open", "shipped"], "the foreign commit reached its live object")
        store.pollForExternalCommits()
        #expect(feed.values.count == 2, "the poller publishes nothing twice")
        #expect(try store.lastChangeSeq == feed.values[1].seq)
        store.close()
    }

    @Test
    func aSetWaitsForAnotherProcesssLockThenPublishesItsCommitAndItsOwnInOrder() throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let first = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(first)
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        let feed = store.changes().record()
        // Python holds the write lock for 300 ms with an uncommitted update, then commits.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: try ForeignTool.python3.path())
        python.arguments = ["-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE orders SET status = 'held' WHERE id = 2")
            print("locked", flush=True)
            time.sleep(0.3)
            db.execute("COMMIT")
            """, path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {   // blocks until Python holds the lock
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
        let started = ContinuousClock.now

        first.purchaseNum = 5   // waits for the lock (busy timeout 5 s), then commits

        #expect(ContinuousClock.now - started >= .milliseconds(200), "the set waited for the lock")
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        #expect(first.purchaseNum == 5)
        #expect(described(feed.values) == ["orders[2] status = 'held'", "orders[1] purchase_num = 5"])
        store.close()
    }

    @Test func aStatementThatFailsAfterItsEntryWasWrittenPublishesNothing() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let feed = store.changes().record()
        let purchases = order.signal(for: \.purchaseNum).record()
        let errors = store.errors.record()
        let before = try store.lastChangeSeq

        order.purchaseNum = 500

        #expect(errors.values.map(\.description).contains { $0.contains("purchases over 100 need approval") })
        #expect(order.purchaseNum == 1)
        #expect(feed.values.isEmpty)
        #expect(try store.lastChangeSeq == before, "the refused entry was rolled back")
        order.purchaseNum = 50
        #expect(described(feed.values) == ["orders[1] purchase_num = 50"])
        #expect(feed.values.first?.seq == before + 1)
        #expect(purchases.values == [1, 50])
        store.close()
    }

    @Test func withoutTheHandOverSetsReadTheirEntriesBackAndPublishTheSame() throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        store.database.withLock { $0.ownEntries = nil }   // as where it cannot be set up
        let first = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(first)
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        let feed = store.changes().record()
        first.purchaseNum = 2
        try sqlite3(path, "UPDATE orders SET status = 'shipped' WHERE id = 2")
        first.purchaseNum = 3
        #expect(described(feed.values) == [
            "orders[1] purchase_num = 2", "orders[2] status = 'shipped'", "orders[1] purchase_num = 3",
        ])
        #expect(first.purchaseNum == 3)
        store.close()
    }

    /// The `TEMP` trigger hands over exactly the entries the journal holds afterwards, for
    /// every kind of statement (several columns, an insert with every storage class, many rows,
    /// an eviction, a key change, a delete), and nothing while not collecting.
    @Test func theHandOverHasTheEntriesTheJournalHolds() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("own.sqlite")
        let store = try Store(path: path, migrations: Self.migrations)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        store.close()
        let connection = try Connection(path: path)
        let capture = try #require(OwnEntryCapture.install(on: connection))
        let statements = [
            "UPDATE orders SET purchase_num = 9, status = 'it''s', note = x'00ff' WHERE id = 1",
            "INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (3, 1, 'new', 'a\nb', 1e999)",
            "UPDATE orders SET purchase_num = purchase_num + 1",
            "INSERT OR REPLACE INTO orders (id, purchase_num, status) VALUES (3, 2, 'replaced')",
            "UPDATE orders SET id = 7 WHERE id = 2",
            "DELETE FROM orders WHERE id = 7",
        ]
        for sql in statements {
            let before = try Journal.highestSeq(connection)
            capture.isCollecting = true
            try connection.execute(sql)
            capture.isCollecting = false
            let journaled = try Journal.entries(after: before, connection)
            #expect(!journaled.isEmpty)
            #expect(capture.collected == journaled, "\(sql)")
        }
        capture.isCollecting = true
        capture.isCollecting = false
        try connection.execute("UPDATE orders SET purchase_num = 0")
        #expect(capture.collected == [], "nothing is kept while not collecting")
    }

    @Test func onlyTheStoresOwnConnectionHasTheHandOverTrigger() async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        order.purchaseNum = 2
        let schema = try run(sqlite3Path(), ["-bail", path, "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%signalstore_own_entry%'; SELECT count(*) FROM sqlite_temp_master;"])
        #expect(schema.status == 0, "sqlite3 failed: \(schema.error)")
        #expect(schema.output.split(separator: "\n") == ["0", "0"], "nothing of it is in the file or in another connection")
        try sqlite3(path, "UPDATE orders SET purchase_num = 7 WHERE id = 1")   // a foreign writer does not call it
        await store.settle()
        #expect(order.purchaseNum == 7)
        store.close()
    }
}
