// The snippets of the "Testing code that changes state" article and the README's test
// section, as printed there, so they compile and pass.
import Foundation
import SignalStoreTestSupport
import SignalStoreTesting

private let migrationsURL = packageMigrations

/// A fixture recorded with `signalstore changes --json` (written by the suite's setup below).
private let fixtureURL: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-paid-order-\(UUID().uuidString).json")
    let lines = [
        "[",
        #"{"type":"change","seq":1,"table":"orders","id":42,"operation":"insert","row":{"id":42,"purchase_num":1,"status":"open","note":null,"created_at":0.0,"updated_at":null,"customer_id":null},"timestamp":"2026-11-24T10:00:00.000Z"}"#,
        #",{"type":"change","seq":2,"table":"orders","id":42,"operation":"update","column":"status","old":"open","new":"paid","timestamp":"2026-11-24T10:00:01.000Z"}"#,
        "]",
    ]
    try? Data(lines.joined(separator: "\n").utf8).write(to: url)
    return url
}()

@Suite("The testing article's examples", .ownThread)
struct TestingArticleExamples {
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

    @Test(.enabled(if: sqlite3Shell != nil)) func aJobAndAShellAgree() async throws {
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

// The README's sample suite ("Testing code that changes state"), as printed there; its first
// test is also DESIGN §6's example, as written there.
@Suite(.ownThread) struct OrderTests {
    @Test(.enabled(if: sqlite3Shell != nil)) func payingAnOrder() async throws {
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
        // signalstore changes --json --db app.sqlite > Fixtures/paid-order.json
        let store = try TestStore(migrations: migrationsURL, fixture: fixtureURL)
        let order = try #require(try store.find(Order.self, id: Int64(42)))
        try await store.expectChanges([.update(\Order.status, id: 42, from: "paid", to: "refunded")]) {
            order.status = "refunded"
        }
    }

    /// The failure the README shows is the one this expectation gives, line for line.
    @Test func theReadmesFailureMessage() async throws {
        let store = try TestStore(migrations: migrationsURL)
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)
        let message = try await failure {
            try await store.expectChanges([
                .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
                .update("orders", id: 42, "status", from: "open", to: "paid"),
            ]) {
                order.purchaseNum = 3
                order.status = "shipped"
            }
        }
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```\n" + (message ?? "no failure") + "\n```"), "\(message ?? "no failure")")
    }
}
