// Many live results at once, one run: the CPU of one `order.purchaseNum = n` with 1, 100, 1,000
// and 10,000 customers' `orders` lists live (`@Children`), and with 1,000 live results of one
// table that have no key to route by. The goal: the cost of a commit is flat in the number of
// live results (≤ 1.2× the figure with one). Prints a markdown table.
// Usage: swift run -c release LiveListsHarness [--quick]
import BenchmarkModels
import Foundation
import SignalStore
import Synchronization

@Model(table: "orders")
final class ListedOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

@Model(table: "customers")
final class ListedCustomer {
    var id: Int64
    var name: String
    var email: String?
    @Children(\ListedOrder.customerID, orderBy: .ascending(\ListedOrder.id)) var orders: LiveResults<ListedOrder>

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

let quick = CommandLine.arguments.contains("--quick")
let customerCount = 10_000
let ordersPerCustomer = 3
let writes = quick ? 500 : 2_000

/// A store of 10,000 customers with three orders each.
func makeStore() -> Store {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-lists-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try! Store(path: directory.appendingPathComponent("bench.sqlite").path, migrations: packageMigrations)
    try! store.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(customerCount))
        INSERT INTO customers (id, name) SELECT i, 'c' || i FROM n;
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(customerCount * ordersPerCustomer - 1))
        INSERT INTO orders (id, purchase_num, status, customer_id) SELECT i + 1, i, 'open', i / \(ordersPerCustomer) + 1 FROM n;
        """)
    try! store.pruneChanges(through: Int64.max)
    return store
}

/// Changes a subscriber counted.
final class Count: Sendable {
    let value = Atomic<Int>(0)
}

/// CPU per set of one order's `purchaseNum` (its list subscribed), in µs, with `live` results
/// made by `makeLive` beside it.
func perWrite(live: Int, _ makeLive: (Store, Int) -> Any) -> Double {
    let store = makeStore()
    let kept = (0..<live).map { makeLive(store, $0) }
    let customer = try! store.find(ListedCustomer.self, id: 1)!
    let updates = Count()
    let subscription = customer.orders.changes.subscribe(onValue: { _ in updates.value.add(1, ordering: .relaxed) })
    let order = customer.orders[0]
    for n in 0..<200 { order.purchaseNum = 500_000 + n }   // warm up (values no order holds)
    let started = cpuTime()
    for n in 0..<writes { order.purchaseNum = 1_000 + n }
    let elapsed = Double(cpuTime() - started) / 1_000 / Double(writes)
    let seen = updates.value.load(ordering: .relaxed)
    precondition(seen == 1 + 200 + writes, "the list saw \(seen) changes")
    subscription.dispose()
    withExtendedLifetime(kept) {}
    store.close()
    return elapsed
}

/// The first `index + 1` customers' order lists, read so they are live.
func customersList(_ store: Store, _ index: Int) -> Any {
    let customer = try! store.find(ListedCustomer.self, id: Int64(index + 1))!
    precondition(customer.orders.count == ordersPerCustomer)
    return customer
}

var table = [
    "| live results beside the written list | CPU per `order.purchaseNum = n` | × the figure with one | goal | met |",
    "|---|---|---|---|---|",
]
let one = perWrite(live: 1, customersList)
for live in [1, 100, 1_000, 10_000] {
    let cost = live == 1 ? one : perWrite(live: live, customersList)
    let ratio = cost / one
    table.append("| \(live.formatted()) customers' `orders` lists | \(String(format: "%.1f µs", cost)) | \(String(format: "%.2f×", ratio)) | ≤ 1.2× | \(ratio <= 1.2 ? "yes" : "**no**") |")
}
let unkeyed = perWrite(live: 1_000) { store, index in
    let result = store.results(ListedOrder.self, where: \.status == "status \(index)", orderBy: .ascending(\.id))
    precondition(result.isEmpty)
    return result
}
table.append("| 1,000 results of `orders` keyed by 1,000 statuses (`status == s`), beside one list | \(String(format: "%.1f µs", unkeyed)) | \(String(format: "%.2f×", unkeyed / one)) | ≤ 1.2× | \(unkeyed / one <= 1.2 ? "yes" : "**no**") |")
print(table.joined(separator: "\n"))
