import SignalStoreTesting
@testable import Shop

// The "Testing code that changes state" article's tests, as printed there (migrationsURL and
// fixtureURL are OrderTests.swift's; the golden feed is __Feeds__/checkout.jsonl).
@Suite struct TestingArticleTests {
    @Test func shippingAnOrder() async throws {
        let store = try TestStore(migrations: migrationsURL)
        let order = Order(id: 7, purchaseNum: 2, status: "paid")
        try store.insert(order)
        try await store.expectChanges([
            .update(\Order.status, id: 7, from: "paid", to: "shipped"),
            .insert("orders", id: 8, ["status": "open"]),   // checks the columns it names
        ]) {
            order.status = "shipped"
            try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (8, 1, 'open')")
        }
        try await store.expectNoChanges { order.status = "shipped" }   // an equal value writes nothing
    }

    @Test func payingTouchesNothingElse() async throws {
        let store = try TestStore(migrations: migrationsURL, exhaustivity: .on)
        let order = Order(id: 9, purchaseNum: 1, status: "open")
        try await store.expectChanges([.insert("orders", id: 9)]) {
            try store.insert(order)
        }
        try await store.expectChanges([.update(\Order.status, id: 9, from: "open", to: "paid")]) {
            order.status = "paid"
        }
    }

    @Test func aJobAndAShellAgree() async throws {
        let store = try TestStore(migrations: migrationsURL)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        try await store.expectChanges([
            .update("orders", id: 1, "status", from: "open", to: "held"),
            .update("orders", id: 1, "purchase_num", from: 1, to: 5),
        ]) {
            try store.sqlite3("UPDATE orders SET status = 'held' WHERE id = 1")         // the real shell
            try store.foreignConnection().execute("UPDATE orders SET purchase_num = 5")   // SQLite's defaults
        }
    }

    @Test func refundingAPaidOrder() async throws {
        let store = try TestStore(migrations: migrationsURL, fixture: fixtureURL)
        let order = try #require(try store.find(Order.self, id: Int64(42)))
        try await store.expectChanges([.update(\Order.status, id: 42, from: "paid", to: "refunded")]) {
            order.status = "refunded"
        }
    }

    @Test func checkout() async throws {
        let store = try TestStore(migrations: migrationsURL)
        try store.execute("INSERT INTO orders (id, purchase_num, status, created_at) VALUES (42, 1, 'open', 0)")
        try store.execute("UPDATE orders SET status = 'paid' WHERE id = 42")
        try await store.assertFeed(matches: "checkout")
    }
}
