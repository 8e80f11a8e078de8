import Foundation
import Testing
import SignalStore

// The examples of `Store.read`, `Store.all`, `StoreError`, `Store.signal(_:where:arguments:orderBy:)`
// and `Store.changes(consumer:)`, compiled as written (Swift 6 mode) and run. (The articles'
// examples are compiled and run as printed by Examples/.)

func openOrders(_ store: Store) throws -> (count: Int, first: Order?) {
    try store.read { snapshot in
        let count = try snapshot.count(Order.self, where: "status = ?", arguments: [.text("open")])
        let first = try snapshot.all(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id").first
        return (count, first)
    }
}

func urgent(_ store: Store) throws -> [Order] {
    try store.all(Order.self, where: \.status == "open" && \.purchaseNum >= 3, orderBy: .descending(\.purchaseNum))
}

func rename(_ store: Store) {
    do {
        try store.execute("UPDATE orders SET status = NULL WHERE id = 1")
    } catch SQLiteError.constraint {
        print("a constraint rejected the change; nothing was written")
    } catch {
        print(error)   // says what went wrong and what to do
    }
}

@Suite("Concurrency and errors doc examples")
struct ConcurrencyDocExampleTests {
    @Test func theExamplesRunAsDocumented() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("docs.sqlite"), migrations: packageMigrations)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let (count, first) = try openOrders(store)
        #expect(count == 1 && first?.id == 1)
        #expect(try urgent(store).isEmpty)
        rename(store)   // NOT NULL rejects it
        #expect(first?.status == "open")
        let open = store.signal(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id")
        let counts = Locked<[Int]>([])
        let subscription = open.subscribe(onValue: { orders in counts.withLock { $0.append(orders.count) } })
        first?.status = "paid"
        #expect(counts.withLock { $0 } == [1, 0])
        subscription.dispose()
        store.close()
    }
}

// `Store.changes(consumer:)`'s example.
func forward(_ store: Store, to upload: @escaping @Sendable (Change) throws -> Void) -> any Disposable {
    store.changes(consumer: "uploader").subscribe(onValue: { change in
        do {
            try upload(change)
            try store.acknowledge(through: change.seq, consumer: "uploader")
        } catch {
            print(error)   // not acknowledged: delivered again next time
        }
    })
}

@Suite("Change feed doc examples")
struct ChangeFeedDocExampleTests {
    @Test func theUploaderAcknowledgesWhatItUploaded() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let uploaded = Locked<[Int64]>([])
        let subscription = forward(store) { change in uploaded.withLock { $0.append(change.seq) } }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 1, 'open')")
        #expect(uploaded.withLock { $0 } == [1, 2])
        #expect(try store.consumers.first?.acknowledgedSeq == 2)
        subscription.dispose()
    }
}
