import Foundation
import Testing
@testable import SignalStore

/// Query signals: the current result on subscribe, then a new result only when a commit changed
/// it, from any writer; failures on `store.errors`.
@Suite("Live queries", .ownThread)
struct LiveQueryTests {
    private func openStore(_ directory: TemporaryDirectory) throws -> Store {
        try Store(path: directory.path("queries.sqlite"), migrations: packageMigrations)
    }

    @Test func aThousandRowTransactionSendsOneResult() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let results = Locked<[[Int64]]>([])
        let subscription = store.signal(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id")
            .subscribe(onValue: { orders in results.withLock { $0.append(orders.map(\.id)) } })
        #expect(results.withLock { $0 } == [[1]], "the current result replays on subscribe")
        try store.transaction {
            for id in 2...1_001 { try store.insert(Order(id: Int64(id), purchaseNum: id, status: "open")) }
        }
        #expect(results.withLock { $0.count } == 2, "one result for one commit")
        #expect(results.withLock { $0.last } == Array(1...1_001))
        subscription.dispose()
        store.close()
    }

    @Test func aCommitThatDoesNotChangeTheResultSendsNothing() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        try store.insert(Order(id: 2, purchaseNum: 2, status: "paid"))
        let count = Locked(0)
        let subscription = store.signal(Order.self, where: "status = 'open'").subscribe(onValue: { _ in count.withLock { $0 += 1 } })
        order.purchaseNum = 5                                                       // same rows
        try store.execute("UPDATE orders SET note = 'x' WHERE id = 2")              // not in the result
        try store.execute("UPDATE customers SET name = name")                      // another table
        #expect(count.withLock { $0 } == 1, "only the replay")
        order.status = "paid"                                                       // leaves the result
        #expect(count.withLock { $0 } == 2)
        subscription.dispose()
        store.close()
    }

    @Test func anotherProcessesCommitUpdatesTheResult() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let results = Locked<[Int]>([])
        let subscription = store.signal(Order.self).subscribe(onValue: { orders in results.withLock { $0.append(orders.count) } })
        let sql = (1...50).map { "INSERT INTO orders (id, purchase_num, status) VALUES (\($0), 1, 'open');" }.joined()
        try sqlite3(store.path, "BEGIN; \(sql) COMMIT;")
        await store.settle()
        #expect(results.withLock { $0.last } == 50)
        #expect(results.withLock { $0 } == [0, 50], "one result for the shell's one commit")
        subscription.dispose()
        store.close()
    }

    @Test func aFailingQueryIsReportedNotDropped() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let errors = Locked<[StoreError]>([])
        let errorSubscription = store.errors.subscribe(onValue: { error in errors.withLock { $0.append(error) } })
        let values = Locked(0)
        let subscription = store.signal(Order.self, where: "no_such_column = 1").subscribe(onValue: { _ in values.withLock { $0 += 1 } })
        #expect(values.withLock { $0 } == 0)
        let first = try #require(errors.withLock { $0.first })
        #expect(SQLiteError.error ~= first, "\(first)")
        #expect(first.description.contains("no_such_column"))
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))   // runs again, fails again
        #expect(errors.withLock { $0.count } == 2)
        subscription.dispose()
        errorSubscription.dispose()
        store.close()
    }

    @Test func closingTheStoreCompletesTheQuery() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let completed = Locked(false)
        let subscription = store.signal(Order.self).subscribe(onCompleted: { completed.withLock { $0 = true } })
        store.close()
        #expect(completed.withLock { $0 })
        subscription.dispose()
    }
}

/// The poll for other connections' commits reports a failure once and retries until it works.
@Suite("Poll failures", .ownThread)
struct PollFailureTests {
    @Test func aFailingPollIsReportedOnceAndRetried() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("poll.sqlite"), migrations: packageMigrations, pollInterval: .milliseconds(10))
        let errors = Locked<[StoreError]>([])
        let errorSubscription = store.errors.subscribe(onValue: { error in errors.withLock { $0.append(error) } })
        let seen = Locked<[Int64]>([])
        let feed = store.changes().subscribe(onValue: { change in seen.withLock { $0.append(change.rowID) } })
        // Another process hides the journal behind a view the store cannot read.
        try sqlite3(store.path, "BEGIN; ALTER TABLE _signalstore_changes RENAME TO journal_away; CREATE VIEW _signalstore_changes AS SELECT 1 AS x; COMMIT;")
        #expect(eventually { errors.withLock { !$0.isEmpty } }, "the failure was reported")
        for _ in 0..<20 { store.pollForExternalCommits() }   // many polls fail meanwhile
        #expect(errors.withLock { $0.count } == 1, "reported once, not at every poll: \(errors.withLock { $0 })")
        // It puts the journal back and writes: the next poll works and delivers.
        try sqlite3(store.path, "BEGIN; DROP VIEW _signalstore_changes; ALTER TABLE journal_away RENAME TO _signalstore_changes; COMMIT;")
        try sqlite3(store.path, "INSERT INTO orders (id, purchase_num, status) VALUES (7, 1, 'open');")
        #expect(eventually { seen.withLock { $0.contains(7) } }, "the poll recovered")
        feed.dispose()
        errorSubscription.dispose()
        store.close()
    }
}

extension LiveQueryTests {
    /// A query signal does not keep its store alive: a released store closes, as DESIGN says,
    /// and completes the query.
    @Test func aQuerySignalDoesNotKeepItsStoreAlive() throws {
        let directory = TemporaryDirectory()
        let released = try releasingTheStore({ try openStore(directory) }) { $0.signal(Order.self) }
        #expect(released.isFreed, "the query signal keeps the store alive")
        #expect(released.completed, "the released store completed the query")
    }
}
