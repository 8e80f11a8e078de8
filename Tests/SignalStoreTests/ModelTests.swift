import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

@Suite("Models")
struct ModelTests {
    private func openStore(_ directory: TemporaryDirectory = TemporaryDirectory()) throws -> (Store, TemporaryDirectory) {
        (try Store(path: directory.path("models.sqlite"), migrations: packageMigrations), directory)
    }

    @Test func signalReplaysThenEmitsOnlyThatPropertysCommittedChanges() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)
        let purchases = order.signal(for: \.purchaseNum).record()
        let statuses = order.signal(for: \.status).record()
        #expect(purchases.values == [1])
        order.purchaseNum = 3
        #expect(purchases.values == [1, 3])
        #expect(statuses.values == ["open"])
        #expect(try rows(store, "SELECT purchase_num FROM orders WHERE id = 42") == [[.integer(3)]])
        store.close()
    }

    @Test func assigningAnEqualValueWritesAndEmitsNothing() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 5, status: "open")
        try store.insert(order)
        let recorder = order.signal(for: \.purchaseNum).record()
        let before = try store.lastChangeSeq
        order.purchaseNum = 5
        #expect(recorder.values == [5])
        #expect(try store.lastChangeSeq == before)
        store.close()
    }

    @Test func transactionEmitsEachChangedPropertyOnceWithItsFinalValueInFirstChangedOrder() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let log = Locked<[String]>([])
        order.signal(for: \.status).skip(1).subscribe(onValue: { value in log.withLock { $0.append("status=\(value)") } })
        order.signal(for: \.purchaseNum).skip(1).subscribe(onValue: { value in log.withLock { $0.append("num=\(value)") } })
        try store.transaction {
            order.status = "paid"
            order.purchaseNum = 2
            order.purchaseNum = 3
            #expect(order.purchaseNum == 3, "reads inside the transaction see its writes")
            #expect(log.withLock { $0 }.isEmpty, "nothing emits before the commit")
        }
        #expect(log.withLock { $0 } == ["status=paid", "num=3"])
        store.close()
    }

    @Test func rollbackEmitsNothingAndRevertsInMemoryValues() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let recorder = order.signal(for: \.purchaseNum).record()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.transaction {
                order.purchaseNum = 7
                throw Abort()
            }
        }
        #expect(order.purchaseNum == 1)
        #expect(recorder.values == [1])
        #expect(try rows(store, "SELECT purchase_num FROM orders") == [[.integer(1)]])
        store.close()
    }

    @Test func storeTransactionsHoldTheWriteLockFromTheStart() throws {
        let (store, directory) = try openStore()
        let other = try Connection(path: directory.path("models.sqlite"), busyTimeout: .zero)
        try store.transaction {
            let error = #expect(throws: SQLiteError.self) { try other.execute("BEGIN IMMEDIATE") }
            #expect(error?.code == SQLiteError.busy)
        }
        store.close()
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        struct Abort: Error {}
        try store.transaction {
            order.status = "paid"
            _ = try? store.transaction {
                order.purchaseNum = 9
                throw Abort()
            }
            #expect(order.purchaseNum == 1)
        }
        #expect(order.status == "paid")
        #expect(try rows(store, "SELECT purchase_num, status FROM orders") == [[.integer(1), .text("paid")]])
        store.close()
    }

    @Test func aFailedWriteKeepsTheDatabaseValueEmitsNothingAndIsReported() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let values = order.signal(for: \.purchaseNum).record()
        let errors = store.errors.record()
        order.purchaseNum = -5   // CHECK (purchase_num >= 0)
        #expect(order.purchaseNum == 1)
        #expect(values.values == [1])
        #expect(errors.values.count == 1)
        #expect(errors.values.first?.description.contains("CHECK constraint failed") == true)
        #expect(throws: StoreError.self) {
            try store.transaction { order.purchaseNum = -1 }
        }
        #expect(order.purchaseNum == 1)
        store.close()
    }

    @Test func identityMapKeepsOneLiveInstanceAndDoesNotRetainReleasedOnes() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let first = try #require(try store.find(Order.self, id: Int64(1)))
        let second = try #require(try store.find(Order.self, id: Int64(1)))
        #expect(first === second)
        #expect(try store.all(Order.self).first === first)
        weak var released: Order?
        do {
            let object = try store.find(Order.self, id: Int64(1))
            released = object
            #expect(object === first)
        }
        #expect(released != nil, "still held by `first`")
        _ = first
        #expect(try store.find(Order.self, id: Int64(2)) == nil)
        store.close()
    }

    @Test func releasedObjectsAreNotRetainedByTheStore() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        weak var weakOrder: Order?
        do {
            let order = Order(id: 5, purchaseNum: 1, status: "open")
            try store.insert(order)
            _ = order.signal(for: \.purchaseNum).record()
            weakOrder = order
        }
        #expect(weakOrder == nil)
        store.close()
    }

    @Test
    func changesFromAnotherProcessUpdateTheLiveObjectOnExactlyTheChangedKeyPaths() async throws {
        let (store, directory) = try openStore()
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let purchases = order.signal(for: \.purchaseNum).record()
        let statuses = order.signal(for: \.status).record()
        try sqlite3(directory.path("models.sqlite"), "UPDATE orders SET purchase_num = 8 WHERE id = 1")
        #expect(await purchases.events(count: 2))
        #expect(order.purchaseNum == 8)
        #expect(statuses.values == ["open"])
        store.close()
    }

    @Test func rawSQLThroughTheStoreUpdatesLiveObjects() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let statuses = order.signal(for: \.status).record()
        try store.execute("UPDATE orders SET status = 'shipped'")
        #expect(order.status == "shipped")
        #expect(statuses.values == ["open", "shipped"])
        store.close()
    }

    @Test func deleteCompletesSignalsAndLaterWritesAreErrorsNotCrashes() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let recorder = order.signal(for: \.purchaseNum).record()
        let errors = store.errors.record()
        try store.execute("DELETE FROM orders WHERE id = 1")   // external to the object
        #expect(recorder.isCompleted)
        order.purchaseNum = 4
        #expect(errors.values.count == 1)
        #expect(order.purchaseNum == 1)
        #expect(order.signal(for: \.purchaseNum).record().isCompleted)
        store.close()
    }

    @Test func aSubscriberThatWritesFromItsCallbackIsQueuedNotNested() throws {
        let (store, folder) = try openStore()
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let log = Locked<[String]>([])
        order.signal(for: \.purchaseNum).subscribe(onValue: { value in
            log.withLock { $0.append("start \(value)") }
            if value == 2 { order.purchaseNum = 3 }
            log.withLock { $0.append("end \(value)") }
        })
        let other = order.signal(for: \.purchaseNum).record()
        order.purchaseNum = 2
        #expect(log.withLock { $0 } == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
        #expect(other.values == [1, 2, 3])
        store.close()
    }

    @Test func reopeningGivesBackExactlyWhatWasCommitted() throws {
        let directory = TemporaryDirectory()
        do {
            let (store, _) = try openStore(directory)
            let order = Order(id: 7, purchaseNum: 2, status: "open", note: "it's \"quoted\"")
            try store.insert(order)
            order.purchaseNum = 4
            store.close()
        }
        let (store, _) = try openStore(directory)
        let order = try #require(try store.find(Order.self, id: Int64(7)))
        #expect(order.purchaseNum == 4)
        #expect(order.note == "it's \"quoted\"")
        store.close()
    }

    @Test func unmanagedObjectsSignalsStillReplayAndEmit() {
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        let recorder = order.signal(for: \.purchaseNum).record()
        order.purchaseNum = 2
        #expect(recorder.values == [1, 2])
        let selected = order.signal(for: \.isSelected).record()
        order.isSelected = true
        #expect(selected.values == [false, true])
    }

    @Test func schemaCheckNamesPropertyTableAndColumn() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let error = #expect(throws: StoreError.self) { try store.insert(Mismatched(id: 1, missingThing: 2)) }
        #expect(error?.description.contains("'missingThing'") == true)
        #expect(error?.description.contains("'missing_thing'") == true)
        #expect(error?.description.contains("'orders'") == true)
    }

    @Test func aMisspelledColumnGetsASuggestionAtFirstUse() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let error = #expect(throws: StoreError.self) { try store.insert(Misspelled(id: 1, purchaseNumber: 2)) }
        #expect(error?.description.contains("maps to column 'purchase_number', which table 'orders' does not have (did you mean purchase_num?)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("its columns are: id, purchase_num, status") == true, "\(String(describing: error))")
        #expect(try store.all(Order.self).isEmpty)
    }
}

/// A model whose property has no column in `orders`.
@Model(table: "orders")
final class Mismatched {
    var id: Int64
    var missingThing: Int

    init(id: Int64, missingThing: Int) {
        self.id = id
        self.missingThing = missingThing
    }
}

/// A model whose property's column is one letter group away from `orders.purchase_num`.
@Model(table: "orders")
final class Misspelled {
    var id: Int64
    var purchaseNumber: Int

    init(id: Int64, purchaseNumber: Int) {
        self.id = id
        self.purchaseNumber = purchaseNumber
    }
}
