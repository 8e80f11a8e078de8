import Foundation
import Observation
import SignalStore
import SignalStoreTestSupport
import Testing

/// An order with its customer, in an app target whose default isolation is the main actor.
@Model(table: "orders")
final class ShopOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?
    @Parent(\ShopOrder.customerID) var customer: ShopCustomer?

    init(id: Int64, purchaseNum: Int, status: String, customerID: Int64? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.customerID = customerID
    }
}

/// A main-actor customer with its orders.
@MainActor @Model(table: "customers")
final class ShopCustomer {
    var id: Int64
    var name: String
    @Children(\ShopOrder.customerID, orderBy: .ascending(\ShopOrder.id)) var orders: LiveResults<ShopOrder>

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// Relationships as a view uses them: read on the main actor, observed with Observation, and
/// followed as the `sqlite3` shell re-points them.
@Suite
struct RelationshipAppTests {
    @Test func aViewReadsTheParentAndHearsTheLinkChangeOnTheMainActor() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("app.sqlite"), migrations: packageMigrationList)
        defer { store.close() }
        let ann = ShopCustomer(id: 1, name: "Ann"), bea = ShopCustomer(id: 2, name: "Bea")
        try store.insert(ann)
        try store.insert(bea)
        let order = ShopOrder(id: 7, purchaseNum: 1, status: "open")
        order.customer = ann
        try store.insert(order)
        #expect(order.customer === ann && ann.orders.map(\.id) == [7])

        let changes = Recorder<Bool>()
        withObservationTracking { _ = order.customer?.name } onChange: { changes.record(isOnMainQueue()) }
        let names = Recorder<String?>()
        let subscription = order.signal(for: \.customer, \.name).observe(on: MainScheduler.shared).subscribe(onValue: { names.record($0) })
        defer { subscription.dispose() }
        try sqlite3(directory.path("app.sqlite"), "UPDATE orders SET customer_id = 2 WHERE id = 7;")
        #expect(await waitUntil { names.values == ["Ann", "Bea"] })
        #expect(await waitUntil { !changes.values.isEmpty })
        #expect(order.customer === bea)
        // The lists follow on the thread that delivers the commit, which may come after the
        // main queue has shown the name.
        #expect(await waitUntil { ann.orders.isEmpty && bea.orders.map(\.id) == [7] })
    }
}
