import Foundation
@testable import SignalStore
import Testing

/// A full disk (simulated with `PRAGMA max_page_count`) and long runs of subscriptions and
/// object lifetimes.
@Suite struct ResourceLimitTests {
    struct Abort: Error {}

    /// Caps the store's connection at its current size: the next page it needs is "disk full".
    private func fillDisk(_ store: Store) throws {
        try store.writeTransaction { connection in
            let pages = try connection.statement("PRAGMA page_count").rows().first?.first
            guard case .integer(let count)? = pages else { return }
            try connection.execute("PRAGMA max_page_count = \(count)")
        }
    }

    private func freeDisk(_ store: Store) throws {
        try store.writeTransaction { connection in try connection.execute("PRAGMA max_page_count = 1073741823") }
    }

    private func isFull(_ error: any Error) -> Bool {
        guard let error = error as? StoreError, case .sqlite(let underlying) = error else { return false }
        return underlying.code == SQLiteError.full
    }

    @Test func aFullDiskDuringWritesAndTransactionsSurfacesAndLeavesNothingPartial() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("full.sqlite"), migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "new")
        try store.insert(order)
        let errors = Locked<[StoreError]>([])
        let errorSubscription = store.errors.subscribe(onValue: { error in errors.withLock { $0.append(error) } })
        let audit = try DatabaseAudit(path: store.path)
        let rowsBefore = try audit.rows(of: "orders"), journalBefore = try audit.journal()
        let big = String(repeating: "x", count: 200_000)
        try fillDisk(store)

        // A plain write.
        #expect { try store.execute("INSERT INTO orders (purchase_num, status, note) VALUES (1, 'big', ?)", arguments: [.text(big)]) } throws: { isFull($0) }
        // A write-through: the object keeps the database's value, the error is reported.
        order.note = big
        #expect(order.note == nil)
        #expect(errors.withLock { $0.count } == 1 && errors.withLock { $0.allSatisfy(isFull) })
        // A transaction: the first insert fits, the second does not; neither remains.
        #expect {
            try store.transaction {
                order.purchaseNum = 2
                try store.execute("INSERT INTO orders (purchase_num, status) VALUES (5, 'small')")
                try store.execute("INSERT INTO orders (purchase_num, status, note) VALUES (6, 'big', ?)", arguments: [.text(big)])
            }
        } throws: { isFull($0) }
        #expect(order.purchaseNum == 1)
        #expect(try audit.rows(of: "orders") == rowsBefore, "a partial write remained")
        #expect(try audit.journal() == journalBefore, "the journal recorded a failed write")

        // Space returns: the same store keeps working.
        try freeDisk(store)
        try store.execute("INSERT INTO orders (purchase_num, status, note) VALUES (1, 'big', ?)", arguments: [.text(big)])
        order.note = "fits"
        try store.transaction { order.purchaseNum = 3 }
        #expect(order.note == "fits" && order.purchaseNum == 3)
        #expect(try audit.rows(of: "orders")[1]?["purchase_num"] == .integer(3))
        #expect(try audit.replayedRows(of: "orders") == audit.rows(of: "orders"))
        errorSubscription.dispose()
        store.close()
    }

    @Test func aFullDiskDuringAMigrationRollsItBackAndTheNextOpenWorks() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("migrate.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let before = fileBytes(path)
        var migrations = try Migration.load(from: packageMigrations)
        // The migration caps its own connection, then needs far more pages than allowed.
        let filling = Migration(version: 3, name: "fill", sql: """
            PRAGMA max_page_count = 40;
            CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB);
            INSERT INTO big (payload) SELECT randomblob(4000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n);
            """)
        #expect { try Store(path: path, migrations: migrations + [filling]) } throws: { error in
            guard let error = error as? StoreError, case .migration(let failure) = error else { return false }
            return failure.kind == .statementFailed && failure.message.contains("full")
        }
        #expect(fileBytes(path) == before, "the failed migration left something behind")
        #expect(try !DatabaseAudit(path: path).hasTable("big"))

        // Space returns (a new connection has no cap): the migration applies.
        migrations.append(Migration(version: 3, name: "fill", sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB); INSERT INTO big (payload) VALUES (randomblob(4000));"))
        let store = try Store(path: path, migrations: migrations)
        #expect(try DatabaseAudit(path: path).rows(of: "big").count == 1)
        store.close()
    }

    /// An object whose release shows that whatever held it let go.
    final class Canary: Sendable {}

    @Test func tenThousandSubscribeDisposeCyclesLeakNoSubscription() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("cycles.sqlite"), migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 0, status: "new")
        try store.insert(order)
        var canaries: [() -> Canary?] = []
        for cycle in 1...10_000 {
            let canary = Canary()
            let property = order.signal(for: \.purchaseNum).subscribe(onValue: { _ in _ = canary })
            let feed = store.changes().subscribe(onValue: { _ in _ = canary })
            let query = cycle % 10 == 0 ? store.signal(Order.self).subscribe(onValue: { _ in _ = canary }) : nil
            if cycle % 100 == 0 { order.purchaseNum = cycle }
            property.dispose()
            feed.dispose()
            query?.dispose()
            canaries.append { [weak canary] in canary }
        }
        #expect(canaries.filter { $0() != nil }.isEmpty, "disposed subscriptions still hold their closures")
        #expect(store.publisher.feed.subscriberCount == 0)
        store.close()
    }

    @Test func tenThousandObjectLifetimesLeaveNoLiveObjectsBehind() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("lifetimes.sqlite"), migrations: packageMigrations)
        var released: [() -> Order?] = []
        for lifetime in 1...10_000 {
            let order: Order
            if lifetime <= 5_000 {
                order = Order(id: Int64(lifetime), purchaseNum: lifetime, status: "new")
                try store.insert(order)
            } else {
                order = try #require(try store.find(Order.self, id: Int64(lifetime - 5_000)))
            }
            let subscription = order.signal(for: \.status).subscribe(onValue: { _ in })
            if lifetime % 50 == 0 { order.status = "seen \(lifetime)" }
            subscription.dispose()
            if lifetime % 10 == 0 { released.append { [weak order] in order } }
        }
        #expect(released.filter { $0() != nil }.isEmpty, "released objects are still alive")
        let (live, entries) = store.registry.withLock { ($0.liveObjects.count, $0.entryCount) }
        #expect(live == 0)
        #expect(entries <= 128, "the identity map keeps \(entries) entries of released objects")
        store.close()
    }
}
