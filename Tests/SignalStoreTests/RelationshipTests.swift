import Foundation
import SignalStoreTesting
import SignalsTesting
import Testing
@testable import SignalStore

@Model(table: "customers")
final class Buyer {
    var id: Int64
    var name: String
    var email: String?
    @Children(\Purchase.customerID, orderBy: .ascending(\Purchase.id)) var purchases: LiveResults<Purchase>

    init(id: Int64, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}

@Model(table: "orders")
final class Purchase {
    var id: Int64
    @Column("customer_id") var customerID: Int64?
    var note: String?
    @Parent(\Purchase.customerID) var customer: Buyer?
    @Children(\PurchaseLine.orderID) var lines: LiveResults<PurchaseLine>

    init(id: Int64, customerID: Int64? = nil, note: String? = nil) {
        self.id = id
        self.customerID = customerID
        self.note = note
    }
}

@Model(table: "lines")
final class PurchaseLine {
    var id: Int64
    @Column("order_id") var orderID: Int64
    var sku: String
    @Parent(\PurchaseLine.orderID) var order: Purchase?

    init(id: Int64, orderID: Int64, sku: String) {
        self.id = id
        self.orderID = orderID
        self.sku = sku
    }
}

/// A relationship without a foreign key under it.
@Model(table: "orders")
final class UnlinkedPurchase {
    var id: Int64
    var note: String?
    @Parent(\UnlinkedPurchase.note) var customer: Buyer?

    init(id: Int64) { self.id = id }
}

/// `@Parent` and `@Children` from the schema's foreign keys, followed from every writer: this
/// store, the `sqlite3` shell (foreign keys off) and another process (Python's `sqlite3`).
@Suite("Relationships", .ownThread)
struct RelationshipTests {
    static let migrations = [
        Migration(version: 1, name: "graph", sql: """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE SET NULL, note TEXT);
            CREATE TABLE lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders ON DELETE CASCADE, sku TEXT NOT NULL);
            CREATE TABLE notes (id INTEGER PRIMARY KEY, line_id INTEGER NOT NULL REFERENCES lines ON DELETE CASCADE, body TEXT);
            """),
    ]

    private func seeded() throws -> TestStore {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("""
            INSERT INTO customers VALUES (1, 'Ada', 'ada@x'), (2, 'Grace', 'grace@x');
            INSERT INTO orders VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c');
            INSERT INTO lines VALUES (100, 10, 'x'), (101, 10, 'y'), (110, 11, 'z');
            INSERT INTO notes VALUES (1000, 100, 'n1'), (1001, 101, 'n2');
            """)
        return store
    }

    /// Runs `sql` from another process: Python's `sqlite3` module, foreign keys off.
    private func python(_ store: TestStore, _ sql: String) throws {
        let script = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.executescript(sys.argv[2])\nc.close()"
        try python3(script, [store.path, sql])
    }

    /// The identity map hashes a row by its rowid only, and a set's entry reuses the last table
    /// and column names it was handed: rows of three tables with the same rowid stay apart.
    @Test func liveObjectsOfDifferentTablesWithTheSameRowidStayApart() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("""
            INSERT INTO customers VALUES (1, 'Ada', 'ada@x');
            INSERT INTO orders VALUES (1, 1, 'first');
            INSERT INTO lines VALUES (1, 1, 'x');
            """)
        let buyer = try #require(try store.find(Buyer.self, id: 1))
        let purchase = try #require(try store.find(Purchase.self, id: 1))
        let line = try #require(try store.find(PurchaseLine.self, id: 1))
        let names = buyer.signal(for: \.name).record()
        let notes = purchase.signal(for: \.note).record()
        let skus = line.signal(for: \.sku).record()

        buyer.name = "Bea"          // sets of three tables, one after another
        purchase.note = "second"
        line.sku = "y"
        try store.sqlite3("UPDATE orders SET note = 'third' WHERE id = 1")   // another process
        await store.settle()
        #expect(names.values == ["Ada", "Bea"])
        #expect(notes.values == ["first", "second", "third"])
        #expect(skus.values == ["x", "y"])

        try store.delete(purchase)  // its line goes with it (ON DELETE CASCADE); the buyer stays
        await store.settle()
        #expect(notes.isCompleted && skus.isCompleted)
        #expect(!names.isCompleted && buyer.name == "Bea")
        #expect(try store.find(Buyer.self, id: 1) === buyer)
    }

    @Test func theParentIsTheLiveInstanceAndFollowsEveryWriter() async throws {
        let store = try seeded()
        let order = try #require(try store.find(Purchase.self, id: 10))
        let ada = try #require(try store.find(Buyer.self, id: 1))
        #expect(order.customer === ada, "the live instance, not a copy")
        let links = order.signal(for: \.customer).map { $0?.id }.record()
        let names = order.signal(for: \.customer, \.name).record()
        #expect(links.values == [1] && names.values == ["Ada"])

        try store.sqlite3("UPDATE orders SET customer_id = 2 WHERE id = 10")        // re-point
        await store.settle()
        #expect(try order.customer?.name == "Grace" && order.customer === store.find(Buyer.self, id: 2))
        try python(store, "UPDATE customers SET name = 'Grace H.' WHERE id = 2")    // the parent's own change
        await store.settle()
        try store.sqlite3("UPDATE orders SET customer_id = NULL WHERE id = 10")     // unlink
        await store.settle()
        #expect(order.customer == nil)
        try python(store, "UPDATE orders SET customer_id = 1 WHERE id = 10")        // link again, another process
        await store.settle()
        #expect(links.values == [1, 2, nil, 1])
        #expect(names.values == ["Ada", "Grace", "Grace H.", nil, "Ada"])

        try store.sqlite3("DELETE FROM customers WHERE id = 1")                     // the parent goes: SET NULL
        await store.settle()
        #expect(order.customer == nil && order.customerID == nil)
        #expect(links.values == [1, 2, nil, 1, nil], "the deletion emits nil once")
        #expect(names.values.last == .some(nil))
        #expect(!links.isCompleted, "the order lives on")
    }

    @Test func aKeyThatNamesNoRowYetLinksWhenTheRowArrives() async throws {
        let store = try seeded()
        try store.sqlite3("INSERT INTO orders VALUES (30, 99, 'ahead of its customer')")   // foreign keys off
        await store.settle()
        let order = try #require(try store.find(Purchase.self, id: 30))
        #expect(order.customer == nil)
        let links = order.signal(for: \.customer).map { $0?.id }.record()
        try store.sqlite3("INSERT INTO customers VALUES (99, 'Late', NULL)")
        await store.settle()
        #expect(links.values == [nil, 99])
        #expect(order.customer === (try store.find(Buyer.self, id: 99)))
        try store.sqlite3("DELETE FROM customers WHERE id = 99")                           // SET NULL
        await store.settle()
        #expect(links.values == [nil, 99, nil])
    }

    @Test func aReplaceThatEvictsTheParentUnlinksIt() async throws {
        let store = try seeded()
        let order = try #require(try store.find(Purchase.self, id: 20))
        let links = order.signal(for: \.customer).map { $0?.id }.record()
        // Customer 3 takes Grace's email: REPLACE evicts customer 2 (no delete trigger fires).
        try store.sqlite3("INSERT OR REPLACE INTO customers VALUES (3, 'Other', 'grace@x')")
        await store.settle()
        #expect(order.customer == nil, "the key names no row")
        #expect(links.values == [2, nil])
    }

    @Test func cascadesThreeLevelsDeepReachLiveObjectsAndResults() async throws {
        let store = try seeded()
        let order = try #require(try store.find(Purchase.self, id: 10))
        let line = try #require(order.lines.first)
        #expect(order.lines.map(\.id) == [100, 101])
        #expect(line.order === order)
        let lineLink = line.signal(for: \.order).map { $0?.id }.record()
        let orderLines = order.lines.changes.record()
        try store.sqlite3("DELETE FROM orders WHERE id = 10")
        await store.settle()
        #expect(try rows(store.store, "SELECT count(*) FROM notes") == [[.integer(0)]], "notes of its lines went too")
        #expect(lineLink.isCompleted, "the line's row is gone: its signals complete")
        #expect(lineLink.values.first == 10)
        #expect(order.lines.isEmpty)
        #expect(orderLines.values.count == 2)
    }

    @Test func childrenAreLiveResultsThatFollowEveryWriter() async throws {
        let store = try seeded()
        let ada = try #require(try store.find(Buyer.self, id: 1))
        let purchases = ada.purchases
        #expect(ada.purchases === purchases, "made once")
        #expect(ada.purchases.map(\.id) == [10, 11])
        try store.sqlite3("INSERT INTO orders VALUES (12, 1, 'new'); UPDATE orders SET customer_id = 2 WHERE id = 10")
        await store.settle()
        #expect(ada.purchases.map(\.id) == [11, 12])
        try python(store, "UPDATE orders SET customer_id = 1 WHERE id = 20")
        await store.settle()
        #expect(ada.purchases.map(\.id) == [11, 12, 20])
        #expect(ada.purchases.first === (try store.find(Purchase.self, id: 11)))
    }

    @Test func settingTheParentWritesTheKeyAndNeedsAManagedParent() async throws {
        let store = try seeded()
        let order = try #require(try store.find(Purchase.self, id: 20))
        let grace = try #require(try store.find(Buyer.self, id: 2))
        let ada = try #require(try store.find(Buyer.self, id: 1))
        try await store.expectChanges([.update("orders", id: 20, "customer_id", from: 2, to: 1)]) {
            order.customer = ada
        }
        #expect(order.customerID == 1 && order.customer === ada)
        try await store.expectChanges([.update("orders", id: 20, "customer_id", from: 1, to: SQLiteValue.null)]) {
            order.customer = nil
        }
        let errors = store.store.errors.record()
        order.customer = Buyer(id: 9, name: "not inserted")
        #expect(errors.values.map(\.description) == ["cannot set Purchase.customer to a Buyer that is not in a store: insert it (or find it) first, so it has a key"])
        #expect(order.customerID == nil)
        // An object not in a store takes a managed parent's key, written when it is inserted.
        let new = Purchase(id: 30)
        new.customer = grace
        #expect(new.customerID == 2 && new.customer === grace)
        try store.insert(new)
        #expect(try rows(store.store, "SELECT customer_id FROM orders WHERE id = 30") == [[.integer(2)]])
        #expect(Buyer(id: 5, name: "loose").purchases.isEmpty, "an object not in a store has no children")
    }

    @Test func aRelationshipWithoutAForeignKeyIsAClearErrorAtFirstUse() throws {
        let store = try seeded()
        #expect {
            _ = try store.find(UnlinkedPurchase.self, id: 10)
        } throws: { error in
            (error as? StoreError)?.description == "relationship 'customer' of UnlinkedPurchase needs a foreign key from orders.note to customers, and it has FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL; add 'REFERENCES customers' to column note in a migration, or name the key column that has one"
        }
    }

    @Test func includingLoadsTheParentsInOneQueryPerRelationshipIdentityKept() throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("""
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 1000)
            INSERT INTO customers (id, name) SELECT value, 'c' || value FROM n WHERE value <= 50;
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 1000)
            INSERT INTO orders (id, customer_id) SELECT value, CASE WHEN value % 7 = 0 THEN NULL ELSE value % 50 + 1 END FROM n WHERE value <= 500;
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 1000)
            INSERT INTO lines (id, order_id, sku) SELECT value, value % 500 + 1, 's' FROM n;
            """)
        let queries = store.store.modelQueryCount
        let before = queries.withLock { $0 }
        let lines = try store.store.all(PurchaseLine.self, orderBy: .ascending(\.id), including: \.order)
        #expect(queries.withLock { $0 } - before == 2, "the lines, then their orders")
        let orders = try store.store.all(Purchase.self, where: \.id <= 100, including: \.customer)
        #expect(queries.withLock { $0 } - before == 4)
        #expect(lines.count == 1000 && orders.count == 100)
        // Reading the parents now runs no query, and gives the live instances.
        let customers = orders.map(\.customer)
        let linesOrders = lines.map(\.order)
        #expect(queries.withLock { $0 } - before == 4)
        #expect(customers.filter { $0 == nil }.count == 14, "NULL keys have no parent")
        #expect(customers[0] === (try store.find(Buyer.self, id: 2)))
        #expect(linesOrders[0] === (try store.find(Purchase.self, id: 2)))
        #expect(linesOrders[0] === orders[1], "one object per row, whichever read loaded it")
        #expect(throws: StoreError.invalidArgument("'note' is not a relationship of Purchase; including: takes @Parent and @Children properties")) {
            try store.store.all(Purchase.self, including: \.note)
        }
    }

    @Test func includingChildrenReadsEveryResultInOneQueryAndTheyStayLive() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("""
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 300)
            INSERT INTO orders (id, customer_id) SELECT value, NULL FROM n;
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 900)
            INSERT INTO lines (id, order_id, sku) SELECT value, (value * 7) % 300 + 1, 's' || value FROM n;
            """)
        let queries = store.store.modelQueryCount
        let before = queries.withLock { $0 }
        let orders = try store.store.all(Purchase.self, orderBy: .ascending(\.id), including: \.lines)
        #expect(queries.withLock { $0 } - before == 2, "the orders, then every order's lines")
        let seeded = orders.map { $0.lines.map(\.id) }
        #expect(queries.withLock { $0 } - before == 2, "the results and their objects are read already")
        // The same rows, in the same order, as each result reads by itself.
        let expected = try (1...300).map { id in
            try rows(store.store, "SELECT id FROM lines WHERE order_id = ? ORDER BY rowid", [.integer(Int64(id))]).map { $0[0].integerValue! }
        }
        #expect(seeded == expected)
        #expect(orders[0].lines.first === (try store.find(PurchaseLine.self, id: seeded[0][0])))
        // Seeded results stay live.
        let changes = orders[4].lines.changes.record()
        try store.sqlite3("BEGIN; INSERT INTO lines (id, order_id, sku) VALUES (5000, 5, 'new'); DELETE FROM lines WHERE id = \(seeded[4][0]); COMMIT")
        await store.settle()
        #expect(orders[4].lines.map(\.id) == Array(seeded[4].dropFirst()) + [5000])
        #expect(changes.values.count == 2, "the whole result, then one update for the one commit")
        // A parent without children gets an empty result, whole at once.
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'Ann')")
        let customers = try store.store.all(Buyer.self, including: \.purchases)
        #expect(customers.count == 1 && customers[0].purchases.isEmpty)
        let nobody = try store.store.all(Purchase.self, where: \.id == 1, including: \.customer)
        #expect(nobody[0].customer == nil)
    }

    @Test func aGraphWalkedBothWaysIsReleasedWhenTheStoreCloses() throws {
        let store = try seeded()
        weak var weakOrder: Purchase?
        weak var weakCustomer: Buyer?
        try {
            let order = try #require(try store.find(Purchase.self, id: 10))
            let customer = try #require(order.customer)
            #expect(customer.purchases.contains { $0 === order })
            weakOrder = order
            weakCustomer = customer
        }()
        #expect(weakOrder != nil && weakCustomer != nil, "they hold each other, as a view showing them needs")
        store.store.close()
        #expect(weakOrder == nil && weakCustomer == nil, "closing releases the links")
    }

    @Test func anOrderReleasedAloneReleasesItsCustomer() throws {
        let store = try seeded()
        weak var weakCustomer: Buyer?
        try {
            let order = try #require(try store.find(Purchase.self, id: 20))
            weakCustomer = order.customer
            #expect(weakCustomer != nil)
        }()
        #expect(weakCustomer == nil)
    }

    @Test func readingALiveParentAgainIsALookupNotAQuery() throws {
        let store = try seeded()
        let order = try #require(try store.find(Purchase.self, id: 10))
        let customer = try #require(order.customer)
        let queries = store.store.modelQueryCount
        let before = queries.withLock { $0 }
        for _ in 0..<1_000 { #expect(order.customer === customer) }
        #expect(queries.withLock { $0 } == before, "no read of the parent ran a query")
        // Re-keyed elsewhere, it is looked up again.
        try store.execute("UPDATE orders SET customer_id = 2 WHERE id = 10")
        #expect(order.customer?.id == 2 && queries.withLock { $0 } == before + 1)
    }
}
