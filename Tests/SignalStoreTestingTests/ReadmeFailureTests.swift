// The README's test section: the failure it prints is the one `expectChanges` gives. (Its
// snippets, and the testing article's, are compiled and run as printed by Examples/.)
import Foundation
import SignalStoreTestSupport
import SignalStoreTesting

private let migrationsURL = packageMigrations

@Suite(.ownThread) struct ReadmeFailureTests {
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
