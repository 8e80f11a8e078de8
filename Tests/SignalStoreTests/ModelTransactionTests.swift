import Foundation
import Testing
@testable import SignalStore

/// A model's property set inside `store.transaction`: it compares with the value the
/// transaction itself gave the property, and a set that cannot be written fails the transaction.
@Suite("Model sets in a transaction")
struct ModelTransactionTests {
    @Test func aSetInATransactionComparesWithTheTransactionsOwnValue() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let before = try store.lastChangeSeq
        try store.transaction {
            order.purchaseNum = 2
            order.purchaseNum = 2   // the transaction's own value already: nothing written
            order.purchaseNum = 1   // the committed value, but not the transaction's: written
        }
        #expect(try rows(store, "SELECT purchase_num FROM orders WHERE id = 1") == [[.integer(1)]])
        #expect(try store.lastChangeSeq == before + 2)
        #expect(order.purchaseNum == 1)
        store.close()
    }

    @Test func aSetWhoseRowIsGoneFailsItsTransactionNamingTheProperty() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let error = #expect(throws: StoreError.self) {
            try store.transaction {
                try store.execute("DELETE FROM orders WHERE id = 1")
                order.purchaseNum = 2
            }
        }
        #expect(error?.description.contains("cannot set Order.purchaseNum: its row in 'orders' no longer exists") == true, "\(String(describing: error))")
        #expect(try rows(store, "SELECT purchase_num FROM orders WHERE id = 1") == [[.integer(1)]], "the transaction rolled back")
        store.close()
    }
}
