import Foundation
import SignalStoreTestSupport
import SignalStoreTesting

/// The migrations of the package's example app.
private let migrationsURL = packageMigrations

// DESIGN §6's example, as written there.
@Test func payingAnOrder() async throws {
    let store = try TestStore(migrations: migrationsURL)      // a temporary file, removed after
    let order = Order(id: 42, purchaseNum: 1, status: "open")
    try store.insert(order)
    try await store.expectChanges([
        .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
        .update("orders", id: 42, "status", from: "open", to: "paid"),
    ]) {
        order.purchaseNum = 3
        try store.sqlite3("UPDATE orders SET status = 'paid' WHERE id = 42")   // a real foreign writer
    }
}
