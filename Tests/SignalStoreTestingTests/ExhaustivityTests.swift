import Foundation
import SignalStoreTestSupport
import Testing
@testable import SignalStoreTesting

@Model(table: "customers")
final class KitCustomer {
    var id: Int64
    var name: String

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

@Model(table: "orders")
final class KitOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?
    @Parent(\KitOrder.customerID) var customer: KitCustomer?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

/// Whole-test exhaustivity (as TCA's TestStore) and the relationship form of `ExpectedChange`.
@Suite("Exhaustivity and relationship expectations", .ownThread)
struct ExhaustivityTests {
    @Test func aRelationshipChangeIsExpectedByItsKeys() async throws {
        let store = try TestStore(migrations: packageMigrations)
        let ann = KitCustomer(id: 1, name: "Ann"), bea = KitCustomer(id: 2, name: "Bea")
        let order = KitOrder(id: 42, purchaseNum: 1, status: "open")
        try store.insert(ann)
        try store.insert(bea)
        try store.insert(order)
        try await store.expectChanges([
            .update(\KitOrder.customer, id: 42, from: nil, to: 1),
            .update(\KitOrder.customer, id: 42, from: 1, to: 2),
            .update(\KitOrder.customer, id: 42, from: 2, to: nil),
        ]) {
            order.customer = ann
            order.customer = bea
            order.customer = nil
        }
    }

    @Test func exhaustivityOnFailsWithTheEntriesNoExpectationCovered() async throws {
        let message = try await failure {
            let store = try TestStore(migrations: packageMigrations, exhaustivity: .on)
            let order = Order(id: 42, purchaseNum: 1, status: "open")
            try store.insert(order)                                   // not asserted
            try await store.expectChanges([.update(\Order.purchaseNum, id: 42, from: 1, to: 3)]) {
                order.purchaseNum = 3
            }
            try store.sqlite3("UPDATE orders SET status = 'paid' WHERE id = 42")   // not asserted
            await store.settle()
            // Released here: the check runs.
        }
        #expect(message?.hasPrefix("exhaustivity .on: 2 entries were committed during the test and asserted by no expectChanges; assert them, or make this TestStore with exhaustivity: .off:") == true, "\(message ?? "no failure")")
        #expect(message?.contains("insert orders id=42") == true)
        #expect(message?.contains("update orders id=42 status 'open' → 'paid'") == true)
        #expect(message?.contains("purchase_num 1 → 3") == false, "the asserted entry is not listed")
    }

    @Test func exhaustivityOnPassesWhenEverythingIsAsserted() async throws {
        let store = try TestStore(migrations: packageMigrations, exhaustivity: .on)
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try await store.expectChanges([.insert("orders", id: 42)]) {
            try store.insert(order)
        }
        try await store.expectNoChanges {}
    }

    @Test func exhaustivityOffKeepsEachBlockToItself() async throws {
        let store = try TestStore(migrations: packageMigrations)
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)
        order.status = "paid"
        #expect(store.exhaustivity == .off)
    }
}
