import Foundation
import Testing
@testable import SignalStore

@Model(table: "customers")
final class LinkedCustomer {
    var id: Int64
    var name: String

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

@Model(table: "orders")
final class LinkedOrder {
    var id: Int64
    @Column("customer_id") var customerID: Int64?
    var note: String?
    @Parent(\LinkedOrder.customerID) var customer: LinkedCustomer?

    init(id: Int64, customerID: Int64? = nil, note: String? = nil) {
        self.id = id
        self.customerID = customerID
        self.note = note
    }
}

/// Live results and aggregates whose filter or order reads a parent through a `@Parent` link:
/// after every commit to either table, by every writer, each equals a fresh query and the
/// indices it reported lead there.
@Suite("Live results across a parent", .ownThread)
struct LiveResultsAcrossParentsTests {
    /// Typed queries across `LinkedOrder.customer`, and the SQL a fresh query runs for each.
    enum Query {
        static let customerName = "(SELECT name FROM customers WHERE customers.id = orders.customer_id)"

        static let all: [LiveResultsTests.TypedQuery<LinkedOrder>] = [
            .init(
                name: "customers before m, by note",
                results: { $0.results(LinkedOrder.self, where: .parent(\LinkedOrder.customer, \LinkedCustomer.name < "m"), orderBy: .ascending(\LinkedOrder.note)) },
                predicate: "customer_id IN (SELECT id FROM customers WHERE name < 'm')", orderBy: "note"
            ),
            .init(
                name: "with a note, by customer name then id desc",
                results: { $0.results(LinkedOrder.self, where: \LinkedOrder.note != nil, orderBy: .parent(\LinkedOrder.customer, .ascending(\LinkedCustomer.name)), .descending(\LinkedOrder.id)) },
                predicate: "note IS NOT NULL", orderBy: "\(customerName), id DESC"
            ),
            .init(
                name: "customer 'bo' or no note, by customer name desc",
                results: { $0.results(LinkedOrder.self, where: .parent(\LinkedOrder.customer, \LinkedCustomer.name == "bo") || \LinkedOrder.note == nil, orderBy: .parent(\LinkedOrder.customer, .descending(\LinkedCustomer.name))) },
                predicate: "customer_id IN (SELECT id FROM customers WHERE name = 'bo') OR note IS NULL", orderBy: "\(customerName) DESC"
            ),
            .init(
                name: "window: first 6 by customer name",
                results: { $0.results(LinkedOrder.self, orderBy: .parent(\LinkedOrder.customer, .ascending(\LinkedCustomer.name)), limit: 6) },
                predicate: nil, orderBy: customerName, limit: 6
            ),
        ]
    }

    @Test(arguments: Query.all)
    func everyCommitToEitherTableLeavesTheResultOfAFreshQuery(_ query: LiveResultsTests.TypedQuery<LinkedOrder>) async throws {
        let directory = TemporaryDirectory()
        var (store, foreign, random) = try LiveResultsTests.randomShop(directory, seed: UInt64(query.name.utf8.count) * 104_729)
        let count = Locked<Int?>(nil)
        let counting = store.count(LinkedOrder.self, where: .parent(\LinkedOrder.customer, \LinkedCustomer.name < "m")).subscribe(onValue: { value in count.withLock { $0 = value } })
        try await LiveResultsTests.expectEveryCommitLeavesAFreshQuerysResult(
            query.results(store), id: \.id, predicate: query.predicate, orderBy: query.orderBy, limit: query.limit, store, foreign, &random,
            commit: Self.commitRandomly(step:_:_:_:)
        ) { step, sql in
            let fresh = try store.all(LinkedOrder.self, where: "customer_id IN (SELECT id FROM customers WHERE name < 'm')").count
            #expect(count.withLock { $0 } == fresh, "step \(step): the live count (\(sql))")
        }
        counting.dispose()
        store.close()
    }

    @Test func renamingACustomerMovesHerOrdersAndAChangeNoResultReadsReadsNothing() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'Ann'), (2, 'Bob')")
        try store.execute("INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (10, 1, 'open', 2), (11, 1, 'open', 1), (12, 1, 'open', 2), (13, 1, 'open', NULL)")
        let byName = store.results(LinkedOrder.self, orderBy: .parent(\LinkedOrder.customer, .ascending(\LinkedCustomer.name)))
        #expect(byName.map(\.id) == [13, 11, 10, 12], "an order without a customer sorts as NULL, first")
        let anns = store.results(LinkedOrder.self, where: .parent(\LinkedOrder.customer, \LinkedCustomer.name == "Ann"), orderBy: .ascending(\LinkedOrder.id))
        #expect(anns.map(\.id) == [11])
        let recorder = byName.changes.record()
        try store.execute("UPDATE customers SET name = 'Zoe' WHERE id = 1")
        #expect(byName.map(\.id) == [13, 10, 12, 11])
        #expect(anns.isEmpty)
        guard case .update(_, let deletions, let insertions, _)? = recorder.values.last else { Issue.record("no update"); return }
        #expect(deletions == [1] && insertions == [3], "Ann's order moves to the end")
        let reads = store.resultsRowReadCount.withLock { $0 }
        try store.execute("UPDATE customers SET email = 'z@example.com' WHERE id = 1")
        #expect(store.resultsRowReadCount.withLock { $0 } == reads, "a column neither result reads")
        try store.execute("UPDATE customers SET name = 'Ann' WHERE id = 2")
        #expect(anns.map(\.id) == [10, 12])
        try store.execute("DELETE FROM customers WHERE id = 2")   // ON DELETE SET NULL
        #expect(anns.isEmpty)
        #expect(byName.map(\.id) == [10, 12, 13, 11])
        store.close()
    }

    @Test func aRenameInTheCommitThatChangesHerOrdersPlacesEachWhereAFreshQueryDoes() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy')")
        try store.execute("""
            INSERT INTO orders (id, purchase_num, status, customer_id, note) VALUES
            (10, 1, 'open', 1, 'a'), (11, 1, 'open', 1, 'b'), (12, 1, 'open', 1, NULL), (13, 1, 'open', 1, 'c'),
            (14, 1, 'open', 2, 'd'), (15, 1, 'open', 1, NULL), (16, 1, 'open', 3, 'e')
            """)
        let withNotes = store.results(
            LinkedOrder.self, where: \LinkedOrder.note != nil,
            orderBy: .parent(\LinkedOrder.customer, .ascending(\LinkedCustomer.name)), .ascending(\LinkedOrder.id)
        )
        #expect(withNotes.map(\.id) == [10, 11, 13, 14, 16])
        let recorder = withNotes.changes.record()
        // One commit: Ann becomes Zoe. Of her orders, 10 sets a column no result reads, 11 moves
        // to Bob, 12 gains a note, 13 loses hers, 15 stays without one; Bob's 14 moves to her,
        // and a new order of hers arrives.
        try store.execute("""
            UPDATE customers SET name = 'Zoe' WHERE id = 1;
            UPDATE orders SET purchase_num = 2 WHERE id = 10;
            UPDATE orders SET customer_id = 2 WHERE id = 11;
            UPDATE orders SET note = 'f' WHERE id = 12;
            UPDATE orders SET note = NULL WHERE id = 13;
            UPDATE orders SET customer_id = 1 WHERE id = 14;
            INSERT INTO orders (id, purchase_num, status, customer_id, note) VALUES (17, 1, 'open', 1, 'g');
            """)
        let fresh = try store.all(LinkedOrder.self, where: "note IS NOT NULL", orderBy: "\(Query.customerName), id").map(\.id)
        #expect(fresh == [11, 16, 10, 12, 14, 17])
        #expect(withNotes.map(\.id) == fresh)
        #expect(LiveResultsTests.replay(recorder.values, onto: [10, 11, 13, 14, 16], id: \.id, "the rename's commit") == fresh)
        // A rename alone: the orders' keys come from the customer's entry, no order is read.
        let reads = store.resultsRowReadCount.withLock { $0 }
        try store.execute("UPDATE customers SET name = 'Al' WHERE id = 1")
        #expect(withNotes.map(\.id) == [10, 12, 14, 17, 11, 16])
        #expect(store.resultsRowReadCount.withLock { $0 } == reads, "the renamed customer's orders are placed without reading them")
        #expect(LiveResultsTests.replay(recorder.values, onto: [10, 11, 13, 14, 16], id: \.id, "the rename") == [10, 12, 14, 17, 11, 16])
        store.close()
    }

    @Test func aFirstReadOfThousandsOfOrdersAcrossAParentGivesTheFreshQuerysObjects() throws {
        // Most of the rows at once: read by the filter (which reads the parent) in one scan.
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO customers (id, name) VALUES (1, 'Ann'), (2, 'zed'), (3, 'Bob')")
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO orders (id, purchase_num, status, customer_id) SELECT i, i, 'open', i % 3 + 1 FROM n")
        let beforeM = store.results(LinkedOrder.self, where: .parent(\LinkedOrder.customer, \LinkedCustomer.name < "m"), orderBy: .parent(\LinkedOrder.customer, .descending(\LinkedCustomer.name)), .ascending(\LinkedOrder.id))
        let shown = beforeM.objects.map(\.id)
        let expected = try store.all(LinkedOrder.self, where: "customer_id IN (SELECT id FROM customers WHERE name < 'm')", orderBy: "\(Query.customerName) DESC, id").map(\.id)
        #expect(expected.count == 2_000)
        #expect(shown == expected)
        #expect(beforeM.objects.allSatisfy { order in (try? store.find(LinkedOrder.self, id: order.id)).map { $0 === order } == true }, "each object is the live instance of its row")
        store.close()
    }

    /// The live-results model test's random commits, and every third step a customer renamed,
    /// re-keyed or deleted, or renamed in the commit that changes one of the orders (by turns
    /// from the `sqlite3` shell, another connection and the store).
    static func commitRandomly(step: Int, _ store: Store, _ foreign: Connection, _ random: inout SeededGenerator) throws -> String {
        guard step % 3 == 0 else { return try LiveResultsTests.commitRandomly(step: step, store, foreign, &random) }
        let customer = Int.random(in: 1...6, using: &random)
        let sql: String
        switch Int.random(in: 0..<6, using: &random) {
        case 0: sql = "UPDATE customers SET id = \(Int.random(in: 1...6, using: &random)) WHERE id = \(customer)"
        case 1: sql = "DELETE FROM customers WHERE id = \(customer)"
        case 2: sql = "INSERT OR IGNORE INTO customers (id, name) VALUES (\(customer), 'new')"
        case 3:
            let order = Int.random(in: 1...60, using: &random)
            let change = Bool.random(using: &random)
                ? "note = \(["NULL", "'a'", "'b'"].randomElement(using: &random)!)"
                : "customer_id = \(Int.random(in: 1...6, using: &random))"
            sql = "BEGIN; UPDATE customers SET name = '\(["al", "zed", "bo", "pat"].randomElement(using: &random)!)' WHERE id = \(customer); UPDATE orders SET \(change) WHERE id = \(order); COMMIT;"
        default: sql = "UPDATE customers SET name = '\(["al", "zed", "bo", "pat", "Bo"].randomElement(using: &random)!)' WHERE id = \(customer)"
        }
        switch step % 9 {
        case 0: _ = try run(sqlite3Path(), [store.path, ".timeout 5000", sql])
        case 3: do { try foreign.execute(sql) } catch { try? foreign.execute("ROLLBACK") }
        // The store runs it in a transaction of its own.
        default: _ = try? store.execute(sql.replacingOccurrences(of: "BEGIN; ", with: "").replacingOccurrences(of: " COMMIT;", with: ""))
        }
        return sql
    }
}
