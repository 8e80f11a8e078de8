import Dispatch
import Foundation
import SignalsTesting
import Synchronization
import Testing
@testable import SignalStore

@Suite("Models under concurrency and failure", .ownThread)
struct ModelConcurrencyTests {
    private func openStore(_ directory: TemporaryDirectory) throws -> Store {
        try Store(path: directory.path("models.sqlite"), migrations: packageMigrations)
    }

    @Test func signalsArriveOneAtATimeInCommitOrderFromManyWriterThreads() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 1, purchaseNum: 0, status: "open")
        try store.insert(order)
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let received = Locked<[Int]>([])
        order.signal(for: \.purchaseNum).skip(1).subscribe(onValue: { value in
            if inside.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
            received.withLock { $0.append(value) }
            inside.store(false, ordering: .releasing)
        })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for n in 1...50 { order.purchaseNum = thread * 1_000 + n }
        }
        let committed = try rows(store, "SELECT new_value FROM _signalstore_changes WHERE column_name = 'purchase_num' ORDER BY seq")
            .compactMap { row -> Int? in if case .integer(let value) = row[0] { return Int(value) } else { return nil } }
        #expect(received.withLock { $0 } == committed)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(order.purchaseNum == committed.last)
        store.close()
    }

    @Test func aFullDiskLeavesTheObjectEqualToTheDatabaseAndIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 1, purchaseNum: 0, status: "open")
        try store.insert(order)
        let errors = store.errors.record()
        let values = order.signal(for: \.note).record()
        try store.execute("PRAGMA max_page_count = 1")   // no room left to grow the file
        order.note = String(repeating: "x", count: 100_000)
        #expect(order.note == nil)
        #expect(values.values == [nil])
        #expect(errors.values.first.map { SQLiteError.full ~= $0.underlying } == true)
        try store.execute("PRAGMA max_page_count = 1073741823")   // space returns
        order.note = "fits now"
        #expect(order.note == "fits now")
        store.close()
    }

    @Test func querySignalReplaysAndFollowsTheTable() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let open = store.signal(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id").record()
        #expect(open.values.last?.map(\.id) == [1])
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        #expect(open.values.last?.map(\.id) == [1, 2])
        try store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")
        #expect(open.values.last?.map(\.id) == [2])
    }

    @Test func valuesIsAnAsyncSequenceOfThePropertysValues() async throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        var iterator = order.values(for: \.purchaseNum).makeAsyncIterator()
        #expect(await iterator.next() == 1)
        order.purchaseNum = 2
        #expect(await iterator.next() == 2)
    }

    @Test func anotherStoreProcessUpdatesTheLiveObject() async throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        let order = Order(id: 3, purchaseNum: 1, status: "open")
        try store.insert(order)
        let statuses = order.signal(for: \.status).record()
        let result = try run(helperExecutable.path, ["write", directory.path("models.sqlite"), packageMigrations.path, "UPDATE orders SET status = 'shipped' WHERE id = ?", "3"])
        #expect(result.status == 0, "helper failed: \(result.error)")
        #expect(await statuses.events(count: 2))
        #expect(order.status == "shipped")
        store.close()
    }

    @Test func aBusyDatabaseLeavesTheObjectUnchangedAndIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("models.sqlite"), migrations: packageMigrations, busyTimeout: .milliseconds(50))
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let errors = store.errors.record()
        let other = try Connection(path: directory.path("models.sqlite"))
        try other.execute("BEGIN IMMEDIATE")   // holds the write lock
        order.purchaseNum = 2
        try other.execute("ROLLBACK")
        #expect(order.purchaseNum == 1)
        #expect(errors.values.first.map { SQLiteError.busy ~= $0.underlying } == true)
        order.purchaseNum = 3   // works again once the lock is gone
        #expect(order.purchaseNum == 3)
        store.close()
    }

    @Test func localDeleteCompletesSignalsAndForgetsTheObject() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let recorder = order.signal(for: \.status).record()
        try store.delete(order)
        #expect(recorder.isCompleted)
        #expect(try store.find(Order.self, id: Int64(1)) == nil)
        #expect(throws: StoreError.self) { try store.delete(Order(id: 2, purchaseNum: 0, status: "x")) }
    }

    @Test func anIncompatibleColumnTypeIsASchemaError() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let error = #expect(throws: StoreError.self) { _ = try store.all(WrongType.self) }
        #expect(error?.description.contains("'status'") == true)
        #expect(error?.description.contains("declared TEXT") == true)
    }

    @Test func closingTheStoreCompletesModelSignals() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let recorder = order.signal(for: \.purchaseNum).record()
        store.close()
        #expect(recorder.isCompleted)
    }
}

extension StoreError {
    /// The SQLite error inside, for matching by code.
    var underlying: any Error {
        if case .sqlite(let error) = self { return error }
        return self
    }
}

/// A model whose `status` is declared as an integer, while the column is TEXT.
@Model(table: "orders")
final class WrongType {
    var id: Int64
    var status: Int

    init(id: Int64, status: Int) {
        self.id = id
        self.status = status
    }
}
