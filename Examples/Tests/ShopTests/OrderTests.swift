import Foundation
import SignalStoreTesting
@testable import Shop                                         // your app's module, which declares Order

let migrationsURL = URL(fileURLWithPath: "Migrations")        // `swift test` runs in the package folder
let fixtureURL = URL(fileURLWithPath: "Fixtures/paid-order.json")

@Suite struct OrderTests {
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

    @Test func aStateRecordedWithTheCLI() async throws {
        // Recorded once in the package folder, with the tool of "The command line in two minutes":
        // mkdir -p Fixtures && swift run signalstore changes --json --db app.sqlite > Fixtures/paid-order.json
        let store = try TestStore(migrations: migrationsURL, fixture: fixtureURL)
        let order = try #require(try store.find(Order.self, id: Int64(42)))
        try await store.expectChanges([.update(\Order.status, id: 42, from: "paid", to: "refunded")]) {
            order.status = "refunded"
        }
    }
}
