import Foundation
import Testing
import SignalStore

/// Queries written with key paths: the same rows as the SQL they stand for, values bound.
@Suite("Key-path filters and orderings")
struct ModelFilterTests {
    private func storeWithOrders() throws -> (Store, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("filters.sqlite"), migrations: packageMigrations)
        let rows: [(Int64, Int, String, String?)] = [(1, 5, "open", nil), (2, 1, "open", "it's a gift"), (3, 9, "paid", nil), (4, 5, "paid", "x")]
        for (id, purchaseNum, status, note) in rows {
            try store.insert(Order(id: id, purchaseNum: purchaseNum, status: status, note: note))
        }
        return (store, directory)
    }

    @Test func filtersMatchTheRowsTheirSQLWould() throws {
        let (store, directory) = try storeWithOrders()
        defer { withExtendedLifetime(directory) {} }
        func ids(_ filter: ModelFilter<Order>) throws -> [Int64] { try store.all(Order.self, where: filter).map(\.id) }
        #expect(try ids(\.status == "open") == [1, 2])
        #expect(try ids(\.status != "open") == [3, 4])
        #expect(try ids(\.note == nil) == [1, 3], "== nil is IS NULL")
        #expect(try ids(\.note != nil) == [2, 4])
        #expect(try ids(\.note == "it's a gift") == [2], "values are bound, quotes and all")
        #expect(try ids(\.purchaseNum > 4) == [1, 3, 4])
        #expect(try ids(\.purchaseNum >= 5 && \.status == "paid") == [3, 4])
        #expect(try ids(\.purchaseNum < 2 || \.purchaseNum >= 9) == [2, 3])
        #expect(try ids(!(\.purchaseNum <= 5)) == [3])
        store.close()
    }

    @Test func orderingsApplyInTurnWithTheRowidLast() throws {
        let (store, directory) = try storeWithOrders()
        defer { withExtendedLifetime(directory) {} }
        #expect(try store.all(Order.self, orderBy: .descending(\.purchaseNum)).map(\.id) == [3, 1, 4, 2])
        #expect(try store.all(Order.self, orderBy: .ascending(\.status), .descending(\.id)).map(\.id) == [2, 1, 4, 3])
        #expect(try store.all(Order.self, where: \.status == "paid", orderBy: .ascending(\.purchaseNum)).map(\.id) == [4, 3])
        let counted = try store.read { snapshot in try snapshot.count(Order.self, where: \.status == "open") }
        #expect(counted == 2)
        store.close()
    }

    @Test func aTypedQuerySignalFollowsCommits() throws {
        let (store, directory) = try storeWithOrders()
        defer { withExtendedLifetime(directory) {} }
        let results = Locked<[[Int64]]>([])
        let subscription = store.signal(Order.self, where: \.status == "open", orderBy: .descending(\.purchaseNum))
            .subscribe(onValue: { orders in results.withLock { $0.append(orders.map(\.id)) } })
        let paid = try #require(try store.find(Order.self, id: 3))
        paid.status = "open"
        #expect(results.withLock { $0 } == [[1, 2], [3, 1, 2]])
        subscription.dispose()
        store.close()
    }
}
