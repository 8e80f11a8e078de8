import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SignalStore

/// Reads run on read-only connections beside the writer: they never wait for it, never see a
/// transaction's uncommitted values, and a snapshot read sees one state.
@Suite("Reads beside writes", .ownThread)
struct ReadsBesideWritesTests {
    private func openStore(_ directory: TemporaryDirectory) throws -> Store {
        try Store(path: directory.path("reads.sqlite"), migrations: packageMigrations)
    }

    /// Inserts open orders 1...`count`, in one commit.
    private func insertOrders(_ count: Int, into store: Store) throws {
        try store.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n
            """)
    }

    /// Runs `body` on another thread; the returned semaphore is signalled when it ends.
    @discardableResult
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    @Test func aReadWaitingForAReaderFailsWhenThePoolCloses() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let pool = ReaderPool(path: store.path, capacity: 1, busyTimeout: .seconds(5))
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = onAnotherThread {
            _ = try? pool.read { _ in
                reading.signal()
                release.wait()   // holds the pool's only connection
            }
        }
        reading.wait()
        let outcome = Locked<(any Error)?>(nil)
        let waiter = onAnotherThread {
            do { try pool.read { _ in } } catch { outcome.withLock { $0 = error } }
        }
        pool.close()
        // The waiting read ends while the only connection is still held: it does not wait for
        // it (a bound for a failure only, never reached when the pool works).
        #expect(waiter.wait(timeout: .now() + 30) == .success, "the read went on waiting after close()")
        #expect(outcome.withLock { $0 as? StoreError } == .closed)
        release.signal()
        holder.wait()
        store.close()
    }

    /// Runs `body` while another thread holds a write transaction that set order 1's status to
    /// `'held'`, then lets the transaction commit. Should `body` wait for the writer, it ends when a
    /// timer lets the writer go: `waited` is then true, a failure rather than a hang. No clock is
    /// raced: `body` must return while the writer still holds its transaction, however slow the
    /// machine.
    private func whileATransactionIsOpen<Result>(_ store: Store, _ body: () throws -> Result) throws -> (result: Result, waited: Bool) {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = onAnotherThread {
            try? store.transaction {
                try store.execute("UPDATE orders SET status = 'held' WHERE id = 1")
                inside.signal()
                release.wait()   // holds the write transaction open
            }
        }
        inside.wait()
        let releasedByTimer = Locked(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
            releasedByTimer.withLock { $0 = true }
            release.signal()
        }
        let result = try body()
        let waited = releasedByTimer.withLock { $0 }
        release.signal()
        writer.wait()
        return (result, waited)
    }

    @Test func findAndAllDoNotWaitForAnOpenTransaction() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        // The statuses are taken while the transaction is open: the object is live, and shows
        // the commit once it is delivered.
        let (reads, waited) = try whileATransactionIsOpen(store) { () throws -> (found: Order?, status: String?, count: Int) in
            let found = try store.find(Order.self, id: 1)
            return (found, found?.status, try store.all(Order.self).count)
        }
        #expect(!waited, "the reads waited for the writer's transaction to end")
        #expect(reads.status == "open", "a read saw the uncommitted update")
        #expect(reads.count == 1)
        await store.settle()
        #expect(reads.found?.status == "held", "the committed value reached the live object")
        store.close()
    }

    /// A commit's read of its rows runs on the writer when that is free, for its page cache; while
    /// another thread holds a transaction it reads beside it instead, seeing none of it.
    @Test func aCommitsReadOfItsRowsDoesNotWaitForAnOpenTransaction() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let status = { try store.readingRecentRows { connection in
            try connection.statement("SELECT status FROM orders WHERE rowid = ?").map([.integer(1)]) { row -> SQLiteValue? in row.column(0) }
        } }
        #expect(try status() == [.text("open")])
        let (during, waited) = try whileATransactionIsOpen(store, status)
        #expect(!waited, "the read waited for the writer's transaction to end")
        #expect(during == [.text("open")], "the read saw the uncommitted update")
        #expect(try status() == [.text("held")])
        store.close()
    }

    /// The issue's test: a thread samples a property while another runs transactions that
    /// sometimes roll back; it never sees an uncommitted value, and the transaction's own code
    /// always does.
    @Test func aRolledBackValueIsNeverSeenByAnotherThread() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 1, purchaseNum: 0, status: "open")
        try store.insert(order)
        struct Abort: Error {}
        let stop = Atomic<Bool>(false)
        let seen = Locked<Set<Int>>([])
        let sampler = onAnotherThread {
            while !stop.load(ordering: .relaxed) {
                let value = order.purchaseNum
                let read = (try? store.find(Order.self, id: 1)).flatMap { $0 }?.purchaseNum
                let queried = (try? store.all(Order.self, where: "purchase_num % 2 = 1").count) ?? 0
                seen.withLock { $0.formUnion([value, read ?? 0, queried > 0 ? -1 : 0]) }
            }
        }
        var ownReadsMatched = true
        for round in 1...300 {
            let rollsBack = round % 3 == 0
            // Committed values are even; uncommitted ones odd (and never committed).
            _ = try? store.transaction {
                order.purchaseNum = round * 2 + 1
                let own = order.purchaseNum
                let ownQuery = try store.find(Order.self, id: 1)?.purchaseNum
                if own != round * 2 + 1 || ownQuery != round * 2 + 1 { ownReadsMatched = false }
                if rollsBack { throw Abort() }
                order.purchaseNum = round * 2
            }
        }
        stop.store(true, ordering: .relaxed)
        sampler.wait()
        let odd = seen.withLock { $0.filter { $0 % 2 != 0 } }
        #expect(odd.isEmpty, "another thread saw uncommitted values \(odd.sorted().prefix(10))")
        #expect(ownReadsMatched, "the transaction did not see its own writes")
        #expect(order.purchaseNum == 299 * 2, "the last committed round's value")
        store.close()
    }

    @Test func aRollbackLeavesNothingBehindForAnyone() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let emitted = Locked<[Int]>([])
        let subscription = order.signal(for: \.purchaseNum).skip(1).subscribe(onValue: { value in emitted.withLock { $0.append(value) } })
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.transaction {
                order.purchaseNum = 5
                #expect(order.purchaseNum == 5)
                throw Abort()
            }
        }
        #expect(order.purchaseNum == 1)
        try store.transaction {
            order.purchaseNum = 7
            order.purchaseNum = 1   // set back: nothing changed, nothing emits
        }
        try store.transaction { order.purchaseNum = 2 }
        #expect(emitted.withLock { $0 } == [2])
        subscription.dispose()
        store.close()
    }

    @Test func aSnapshotReadSeesOneStateWhileOthersCommit() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let (before, after, fresh) = try store.read { snapshot -> (Int, Int, Int) in
            let before = try snapshot.count(Order.self)
            let writer = onAnotherThread {
                for id in 2...20 { try? store.insert(Order(id: Int64(id), purchaseNum: id, status: "open")) }
            }
            writer.wait()   // committed meanwhile: this snapshot does not see them
            let after = try snapshot.all(Order.self).count
            return (before, after, try store.all(Order.self).count)
        }
        #expect(before == 1 && after == 1, "the snapshot changed: \(before) then \(after)")
        #expect(fresh == 1, "the body's other reads join its snapshot")
        #expect(try store.read { try $0.count(Order.self) } == 20, "a new snapshot sees the commits")
        #expect(try store.all(Order.self).count == 20)
        store.close()
    }

    /// A snapshot that began before a commit reads the old row; the object made from it must
    /// not start with the old value (the live objects already went past that commit), so the
    /// row is loaded again as it is now.
    @Test func anObjectLoadedFromAnOlderSnapshotIsNeverStale() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let other = try #require(try store.find(Order.self, id: 1))   // keeps the registry reading entries
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 7, 'open')")
        let (before, found) = try store.read { snapshot -> (Int, Order?) in
            let before = try snapshot.count(Order.self)   // the snapshot begins: order 2 has 7
            onAnotherThread { _ = try? store.execute("UPDATE orders SET purchase_num = 8 WHERE id = 2") }.wait()
            return (before, try snapshot.find(Order.self, id: 2))   // its row in the snapshot says 7
        }
        #expect(before == 2)
        #expect(found?.purchaseNum == 8, "the object started with the snapshot's old value")
        #expect(try store.find(Order.self, id: 2)?.purchaseNum == 8)
        withExtendedLifetime(other) {}
        store.close()
    }

    /// A read inside a snapshot's body joins the snapshot rather than waiting for a second
    /// reader: with a pool of one it would otherwise wait for ever.
    @Test func readsNestedInASnapshotDoNotExhaustThePool() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("nested.sqlite"), migrations: packageMigrations, readers: 1)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let finished = DispatchSemaphore(value: 0)
        let result = Locked<Int?>(nil)
        onAnotherThread {
            let count = try? store.read { snapshot in
                try snapshot.count(Order.self) + store.all(Order.self).count + (store.find(Order.self, id: 1) == nil ? 0 : 1)
            }
            result.withLock { $0 = count }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success, "the nested reads waited for a reader")
        #expect(result.withLock { $0 } == 3)
        store.close()
    }

    /// A large commit is narrowed to the rows of live objects before it is applied: a live row
    /// that moves to a new key inside it is still followed.
    @Test func aLiveObjectFollowsItsRowThroughALargeCommit() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try insertOrders(200, into: store)
        let order = try #require(try store.find(Order.self, id: 5))
        let statuses = Locked<[String]>([])
        let subscription = order.signal(for: \.status).subscribe(onValue: { status in statuses.withLock { $0.append(status) } })
        try store.execute("""
            UPDATE orders SET purchase_num = purchase_num + 1;
            UPDATE orders SET id = 1000 WHERE id = 5;
            UPDATE orders SET status = 'moved', purchase_num = 7 WHERE id = 1000;
            """)
        #expect(order.id == 1000 && order.status == "moved" && order.purchaseNum == 7)
        #expect(statuses.withLock { $0 } == ["open", "moved"])
        #expect(try store.find(Order.self, id: 1000) === order)
        subscription.dispose()
        store.close()
    }

    /// Commits that change only ordinary columns store their values in live objects after the
    /// registry's lock is released, so readers filing objects do not wait for them. Readers
    /// filing objects meanwhile still get one object per row, never one left behind a commit.
    @Test func readersBesideLargeCommitsOverLiveObjectsGetOneCurrentObjectPerRow() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try insertOrders(300, into: store)
        let kept = try store.all(Order.self, where: "id <= 100")
        let rounds = 150
        let writing = Locked(true)
        let found = Locked<[Int64: [Order]]>([:])
        let regressions = Locked<[String]>([])
        let readers = (0..<2).map { _ in
            onAnotherThread {
                var seen: [ObjectIdentifier: Int] = [:]
                while writing.withLock({ $0 }) {
                    let id = Int64.random(in: 1...300)
                    guard let order = try? store.find(Order.self, id: id) else { continue }
                    let value = order.purchaseNum
                    if let earlier = seen[ObjectIdentifier(order)], value < earlier {
                        regressions.withLock { $0.append("order \(id) went back from \(earlier) to \(value)") }
                    }
                    seen[ObjectIdentifier(order)] = value
                    found.withLock { $0[id, default: []].append(order) }
                }
            }
        }
        for round in 1...rounds {
            try store.transaction { try store.execute("UPDATE orders SET purchase_num = ?", arguments: [.integer(Int64(round))]) }
        }
        writing.withLock { $0 = false }
        for reader in readers { #expect(reader.wait(timeout: .now() + 30) == .success) }
        #expect(regressions.withLock { $0 }.isEmpty, "\(regressions.withLock { $0 }.prefix(3))")
        #expect(found.withLock { $0.keys.filter { $0 > 100 }.count } > 100, "the readers filed too few objects to tell")
        for (id, orders) in found.withLock({ $0 }) {
            #expect(orders.allSatisfy { $0 === orders[0] }, "order \(id) had \(Set(orders.map(ObjectIdentifier.init)).count) objects")
            #expect(orders[0].purchaseNum == rounds, "order \(id) stopped at \(orders[0].purchaseNum)")
        }
        #expect(kept.allSatisfy { $0.purchaseNum == rounds })
        store.close()
    }

    @Test func aConstraintViolationIsCaughtWithOnePattern() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        var caught = false
        do {
            try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, -1, 'bad')")
        } catch SQLiteError.constraint {
            caught = true
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(caught)
        let order = Order(id: 1, purchaseNum: -1, status: "bad")
        #expect { try store.insert(order) } throws: { SQLiteError.constraint ~= $0 }
    }
}
