import Foundation
import SignalStore
import SignalStoreTestSupport
import SignalStoreTesting
import Testing

/// `StoreOperations`' documentation example, as printed.
func payInFull(_ order: Order, in store: some StoreOperations) throws {
    try store.transaction {
        order.status = "paid"
    }
}

@Suite("StoreOperations: one definition of the common calls, for a Store and a TestStore")
struct StoreOperationsTests {
    @Test func codeWrittenAgainstTheProtocolRunsOnATestStoreAndOnItsStore() async throws {
        let test = try TestStore(migrations: packageMigrations)
        let first = Order(id: 1, purchaseNum: 1, status: "open")
        let second = Order(id: 2, purchaseNum: 1, status: "open")
        try test.insert(first)
        try test.store.insert(second)

        try await test.expectChanges([.update("orders", id: 1, "status", from: "open", to: "paid")]) {
            try payInFull(first, in: test)
        }
        try await test.expectChanges([.update("orders", id: 2, "status", from: "open", to: "paid")]) {
            try payInFull(second, in: test.store)
        }
        #expect(try test.all(Order.self, where: "status = ?", arguments: [.text("paid")], orderBy: "id").map(\.id) == [1, 2])
        #expect(try test.find(Order.self, id: 2) === second)
        #expect(try test.lastChangeSeq == test.store.lastChangeSeq)
        #expect(test.store.store === test.store)
    }
}
