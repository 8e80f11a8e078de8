import Foundation
import SignalStoreTesting
import SignalsTesting
import Testing
@testable import SignalStore

/// The package's `orders` table with its customer key, for typed filters that route by key.
@Model(table: "orders")
final class KeyedOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    var note: String?
    @Column("customer_id") var customerID: Int64?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

/// A commit reaches only the live results it may change: routed by table, by the key a result's
/// rows share, and by the columns its filter and order read.
@Suite("Live results: a commit costs what it changes", .ownThread)
struct LiveResultsRoutingTests {
    /// Typed queries: with a key (`customer_id IS k`, alone or with more), and without one.
    struct Query: Sendable, CustomTestStringConvertible {
        let name: String
        let filter: ModelFilter<KeyedOrder>
        let orderBy: ModelOrdering<KeyedOrder>
        var testDescription: String { name }

        static let all = [
            Query(name: "one customer's, by purchase", filter: \.customerID == 2, orderBy: .ascending(\.purchaseNum)),
            Query(name: "one customer's open ones, by note", filter: \.customerID == 3 && \.status == "open", orderBy: .descending(\.note)),
            Query(name: "no key: purchase at least 5, by status", filter: \.purchaseNum >= 5 || \.customerID == 1, orderBy: .ascending(\.status)),
            Query(name: "text key: open ones, by purchase", filter: \.status == "open", orderBy: .ascending(\.purchaseNum)),
            Query(name: "text key: void ones with a note, by note", filter: \.note != nil && \.status == "void", orderBy: .descending(\.note)),
        ]
    }

    /// The model test of ``LiveResultsTests`` over typed queries, with a second live result of
    /// every other customer beside each, so routing by key is exercised both ways.
    @Test(arguments: Query.all)
    func everyCommitLeavesTheResultOfAFreshQuery(_ query: Query) async throws {
        let directory = TemporaryDirectory()
        var (store, foreign, random) = try LiveResultsTests.randomShop(directory, seed: UInt64(query.name.utf8.count) * 104_729)
        let results = store.results(KeyedOrder.self, where: query.filter, orderBy: query.orderBy)
        let neighbours = (1...4).map { store.results(KeyedOrder.self, where: \.customerID == Int64($0), orderBy: .ascending(\.id)) }
        let steps = ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1" ? 3_000 : 200
        for step in 0..<steps {
            let sql = try LiveResultsTests.commitRandomly(step: step, store, foreign, &random)
            await store.settle()
            let expected = try store.all(KeyedOrder.self, where: query.filter, orderBy: query.orderBy).map(\.id)
            #expect(results.map(\.id) == expected, "step \(step): \(sql)")
            for (offset, neighbour) in neighbours.enumerated() {
                let fresh = try store.all(KeyedOrder.self, where: \.customerID == Int64(offset + 1), orderBy: .ascending(\.id)).map(\.id)
                #expect(neighbour.map(\.id) == fresh, "step \(step), customer \(offset + 1): \(sql)")
            }
        }
        store.close()
    }

    /// The keys a stored text meets: its folded form (ASCII capitals lowered, trailing spaces
    /// dropped), and the integer it reads as; a plain lowercase word is its own key.
    @Test func aTextMeetsItsFoldedFormAndTheIntegerItReadsAs() {
        let expected: [(String, [SQLiteValue])] = [
            ("open", [.text("open")]), ("Open", [.text("open")]), ("open ", [.text("open")]),
            ("a1", [.text("a1")]), ("É", [.text("É")]), ("", [.text("")]), (" ", [.text("")]),
            ("7", [.integer(7), .text("7")]), ("7 ", [.integer(7), .text("7")]),
            ("-7", [.integer(-7), .text("-7")]), ("+7", [.text("+7")]), ("07", [.text("07")]),
        ]
        for (text, keys) in expected {
            #expect(ResultsKey.routingKeys(of: .text(text)) == keys, "\(text)")
        }
    }

    @Test func aCommitReachesOnlyTheResultsOfTheTextKeysItsRowsHold() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open'), (2, 2, 's7')")
        let lists = (0..<100).map { store.results(KeyedOrder.self, where: \.status == "s\($0)", orderBy: .ascending(\.id)) }
        #expect(lists[7].map(\.id) == [2])
        let reads = store.resultsRowReadCount
        let before = reads.withLock { $0 }
        try store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")
        #expect(reads.withLock { $0 } == before, "no list holds 'open' or 'paid'")
        try store.execute("UPDATE orders SET status = 's3' WHERE id = 1")
        #expect(reads.withLock { $0 } == before + 1, "only the list of 's3' reads")
        #expect(lists[3].map(\.id) == [1] && lists[7].map(\.id) == [2])
        try store.execute("UPDATE orders SET status = 'S7 ' WHERE id = 2")   // folded as 's7': that list reads it, and lets it go
        #expect(reads.withLock { $0 } == before + 2)
        #expect(lists[7].isEmpty)
        store.close()
    }

    /// A list's changed rows are told by the commit's entries where they can be: a member that
    /// moves or leaves, and a row inserted by the `sqlite3` shell, read nothing; a row that joins
    /// by an update reads its sort key, which its entry does not hold; so does a value only a
    /// collation tells (`'Open'` for `'open'`). After each, the list is what a fresh query gives.
    @Test func aListsChangedRowsAreToldByTheEntriesAndOnlyAJoiningRowIsRead() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("told.sqlite"), migrations: packageMigrations)
        for id in 1...4 { try store.insert(Order(id: Int64(id), purchaseNum: id * 10, status: "open")) }
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
        let reads = { store.resultsRowReadCount.withLock { $0 } }
        func fresh() throws -> [Int64] { try store.all(Order.self, where: "status = 'open'", orderBy: "purchase_num, rowid").map(\.id) }
        let first = try #require(try store.find(Order.self, id: 1))
        let start = reads()
        first.purchaseNum = 35                  // moves after 3
        first.status = "paid"                   // leaves
        _ = try run(sqlite3Path(), [store.path, ".timeout 5000", "INSERT INTO orders (id, purchase_num, status) VALUES (5, 5, 'open')"])
        await store.settle()
        #expect(open.map(\.id) == [5, 2, 3, 4])
        #expect(reads() == start, "a row its entries told was read")
        first.status = "open"                   // joins: its sort key is read
        #expect(reads() == start + 1)
        first.status = "Open"                   // not 'open' in a BINARY column, which a read tells
        #expect(reads() == start + 2)
        #expect(open.map(\.id) == (try fresh()) && open.map(\.id) == [5, 2, 3, 4])
        store.close()
    }

    @Test func resultsKeyedByTwoColumnsOfATableCostACommitOneReadOfItsRowsKeys() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'c1'), (2, 'c2'); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (1, 1, 's1', 1), (2, 2, 's2', 2)")
        let byCustomer = (1...2).map { id in store.results(KeyedOrder.self, where: \.customerID == Int64(id), orderBy: .ascending(\.id)) }
        let byStatus = (1...2).map { n in store.results(KeyedOrder.self, where: \.status == "s\(n)", orderBy: .ascending(\.id)) }
        let keyReads = store.resultsKeyReadCount
        let before = keyReads.withLock { $0 }
        try store.execute("UPDATE orders SET note = 'gift' WHERE id = 1")   // neither key column: both are read, at once
        #expect(keyReads.withLock { $0 } == before + 1)
        #expect(byCustomer[0].first?.note == "gift" && byStatus[0].first?.note == "gift")
        try store.execute("UPDATE orders SET status = 's2' WHERE id = 1")   // the status is in the entry; the customer is read
        #expect(keyReads.withLock { $0 } == before + 2)
        #expect(byStatus[0].isEmpty && byStatus[1].map(\.id) == [1, 2] && byCustomer[0].map(\.id) == [1])
        store.close()
    }

    /// One commit that writes two tables, their entries interleaved: each table's results, keyed
    /// or not, get that table's entries.
    @Test func aCommitOfTwoTablesReachesEachTablesResultsWithItsOwnEntries() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'c1'), (2, 'c2'); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (1, 1, 'open', 1), (2, 2, 'open', 2)")
        let customers = store.results(LinkedCustomer.self, orderBy: "name")
        let firstCustomers = store.results(KeyedOrder.self, where: \.customerID == 1, orderBy: .ascending(\.id))
        let open = store.results(KeyedOrder.self, where: \.status == "open", orderBy: .ascending(\.id))
        try store.transaction {
            try store.execute("UPDATE customers SET name = 'a' WHERE id = 2")
            try store.execute("UPDATE orders SET customer_id = 1, status = 'paid' WHERE id = 2")
            try store.execute("INSERT INTO customers (id, name) VALUES (3, 'b')")
            try store.execute("INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (3, 3, 'open', 1)")
        }
        #expect(customers.map(\.id) == [2, 3, 1])
        #expect(firstCustomers.map(\.id) == [1, 2, 3])
        #expect(open.map(\.id) == [1, 3])
        store.close()
    }

    static let customers = 300

    /// 300 customers, three orders each, every customer's orders live.
    private func shop() throws -> (TestStore, [Buyer]) {
        let store = try TestStore(migrations: RelationshipTests.migrations)
        let names = (1...Self.customers).map { "(\($0), 'c\($0)', NULL)" }.joined(separator: ", ")
        let orders = (1...Self.customers).flatMap { customer in (0..<3).map { "(\(customer * 10 + $0), \(customer), NULL)" } }.joined(separator: ", ")
        try store.execute("INSERT INTO customers VALUES \(names); INSERT INTO orders VALUES \(orders);")
        let buyers = try store.all(Buyer.self, orderBy: "id")
        for buyer in buyers { #expect(buyer.purchases.count == 3) }
        return (store, buyers)
    }

    /// How many times live results read changed rows while `write` ran and was delivered.
    private func rowReads(_ store: TestStore, _ write: () throws -> Void) async rethrows -> Int {
        let counter = store.store.resultsRowReadCount
        let before = counter.withLock { $0 }
        try write()
        await store.settle()
        return counter.withLock { $0 } - before
    }

    @Test
    func aCommitToOneCustomersOrdersMakesNoOtherListRead() async throws {
        let (store, buyers) = try shop()
        let seventh = buyers[6].purchases.changes.record()
        let eighth = buyers[7].purchases.changes.record()
        let order = try #require(try store.find(Purchase.self, id: 70))

        // A column no list filters or orders by: no read at all, one modification on one list.
        #expect(await rowReads(store) { order.note = "gift" } == 0)
        #expect(seventh.values.count == 2 && eighth.values.count == 1)
        guard case .update(_, [], [], [0])? = seventh.values.last else { Issue.record("\(seventh.values)"); return }

        // The order moves to the eighth customer: the entry's new value tells the list it
        // leaves, which reads nothing; the list it joins reads its sort key (its id).
        #expect(await rowReads(store) { order.customerID = 8 } == 1)
        #expect(buyers[6].purchases.map(\.id) == [71, 72] && buyers[7].purchases.map(\.id) == [70, 80, 81, 82])

        // Another process inserts for the ninth (the entry holds the row) and updates a note:
        // no read.
        #expect(try await rowReads(store) { try store.sqlite3("INSERT INTO orders VALUES (93, 9, 'new')") } == 0)
        #expect(buyers[8].purchases.map(\.id) == [90, 91, 92, 93])
        #expect(try await rowReads(store) { try store.sqlite3("UPDATE orders SET note = 'shell' WHERE id = 91") } == 0)
        #expect(buyers[8].purchases[1].note == "shell")

        // A delete is known from its entry: no read.
        #expect(try await rowReads(store) { try store.sqlite3("DELETE FROM orders WHERE id = 92") } == 0)
        #expect(buyers[8].purchases.map(\.id) == [90, 91, 93])
        #expect(eighth.values.count == 2, "only the move reached the eighth list: \(eighth.values.count)")
    }

    /// With an index that answers a result's filter and order, SQLite scanned that index for the
    /// changed rows instead of looking their rowids up (10–23 ms a commit at 100,000 rows).
    @Test func theChangedRowsAreLookedUpByRowidWhateverIndexesTheTableHas() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("CREATE INDEX orders_by_status ON orders (status, purchase_num)")
        let query = ResultsQuery<Order>(filter: (\Order.status == "open").expression, orderBy: [.ascending(\Order.purchaseNum)])
        for rowIDs: Set<Int64> in [[1], [1, 2]] {
            let plan = try store.reading { connection, _ in
                let read = RowIDRead.text(try #require(query.ordering(store, connection).map(query.rowsRead)), for: rowIDs)
                return try connection.statement("EXPLAIN QUERY PLAN " + read.sql).map(query.arguments + [read.rowIDs]) { row -> String? in
                    if case .text(let detail) = row.column(3) { detail } else { nil }
                }
            }
            #expect(plan.contains { $0.contains("INTEGER PRIMARY KEY (rowid=?)") }, "\(rowIDs.count) rows: \(plan)")
            #expect(!plan.contains { $0.contains("orders_by_status") }, "\(rowIDs.count) rows: \(plan)")
        }
    }

    /// The router takes the store's batches only while a result listens. A result opened after
    /// every other one stopped starts from its own read and hears the next commit.
    @Test func aResultOpenedAfterEveryResultStoppedHearsTheNextCommit() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        var first: LiveResults<KeyedOrder>? = store.results(KeyedOrder.self, where: \.status == "open", orderBy: .ascending(\.id))
        #expect(first?.map(\.id) == [1])
        first = nil
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'open')")   // nobody listens
        let second = store.results(KeyedOrder.self, where: \.status == "open", orderBy: .ascending(\.id))
        let changes = second.changes.record()
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'open')")
        #expect(second.map(\.id) == [1, 2, 3])
        #expect(changes.values.count == 2, "its first value and the insert of 3: \(changes.values.count)")
        store.close()
    }

    /// A subscriber that closes the store while a commit is delivered: every result the commit
    /// reaches still gets it, then each completes, on the delivering thread, with no deadlock.
    @Test func closingTheStoreFromASubscriberCompletesResultsAfterTheCommitInFlight() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let closing = store.results(KeyedOrder.self, orderBy: .ascending(\.id))
        let beside = store.results(KeyedOrder.self, where: \.status == "open", orderBy: .descending(\.id))
        let closer = closing.changes.skip(1).subscribe(onValue: { _ in store.close() })
        let recorder = beside.changes.record()
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'open')")
        #expect(store.isClosed)
        #expect(recorder.values.count == 2, "its first value and the insert: \(recorder.values.count)")
        #expect(recorder.values.last?.objects.map(\.id) == [2, 1])
        guard case .completed? = recorder.events.last else {
            Issue.record("the result did not complete: \(recorder.events)")
            return
        }
        closer.dispose()
    }
}
