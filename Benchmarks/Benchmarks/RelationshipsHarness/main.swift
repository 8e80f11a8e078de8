// Relationships against GRDB 7.10.0's associations, one run: 10,000 orders with their 1,000
// customers in one read, `order.customer` on a live parent, and a foreign insert into a
// relationship of 100 and of 10,000 children. Prints a markdown table.
// Usage: swift run -c release RelationshipsHarness [--quick] [--including-only: our graph read alone, for a profiler]
import BenchmarkModels
import Dispatch
import Foundation
import GRDB
import SignalStore
import Synchronization

@Model(table: "orders")
final class LinkedOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?
    @Parent(\LinkedOrder.customerID) var customer: LinkedCustomer?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

@Model(table: "customers")
final class LinkedCustomer {
    var id: Int64
    var name: String
    var email: String?
    @Children(\LinkedOrder.customerID, orderBy: .ascending(\LinkedOrder.id)) var orders: LiveResults<LinkedOrder>

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// The peer's records of the same tables, and its association.
struct GRDBCustomer: FetchableRecord, TableRecord, Decodable {
    static let databaseTableName = "customers"
    static let orders = hasMany(GRDBLinkedOrder.self)
    var id: Int64
    var name: String
    var email: String?
}

struct GRDBLinkedOrder: FetchableRecord, TableRecord, Decodable {
    static let databaseTableName = "orders"
    static let customer = belongsTo(GRDBCustomer.self)
    var id: Int64
    var purchase_num: Int
    var status: String
    var customer_id: Int64?
}

struct GRDBOrderWithCustomer: FetchableRecord, Decodable {
    var order: GRDBLinkedOrder
    var customer: GRDBCustomer
}

struct GRDBCustomerWithOrders: FetchableRecord, Decodable {
    var customer: GRDBCustomer
    var orders: [GRDBLinkedOrder]
}

let quick = CommandLine.arguments.contains("--quick")
let rounds = quick ? 5 : 21

/// A fresh database with `customers` customers and `orders` orders spread over them.
func makeDatabase(customers: Int, orders: Int) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-relationships-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("bench.sqlite").path
    let store = try! Store(path: path, migrations: packageMigrations)
    try! store.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(max(customers, orders)))
        INSERT INTO customers (id, name) SELECT i, 'customer ' || i FROM n WHERE i <= \(customers);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(orders))
        INSERT INTO orders (id, purchase_num, status, customer_id) SELECT i, i, 'open', (i % \(customers)) + 1 FROM n;
        """)
    try! store.pruneChanges(through: Int64.max)
    store.close()
    return path
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Wall time of `body` in µs, median of `rounds`.
func timed(_ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return median(samples)
}

var table = [
    "| case | SignalStore | GRDB 7.10.0 | ratio (ours / GRDB) | goal | met |",
    "|---|---|---|---|---|---|",
]
@MainActor func row(_ name: String, _ ours: String, _ theirs: String, _ ratio: String, _ goal: String, _ met: Bool?) {
    table.append("| \(name) | \(ours) | \(theirs) | \(ratio) | \(goal) | \(met.map { $0 ? "yes" : "**no**" } ?? "—") |")
}

// 1. 10,000 orders with their 1,000 customers, each order's customer read once. Ours starts with
//    no live objects each round (the objects of the round before are released), as a screen
//    opening afresh does.
let graphPath = makeDatabase(customers: 1_000, orders: 10_000)
let store = try! Store(path: graphPath, migrations: packageMigrations)
let ours = timed {
    let orders = try! store.all(LinkedOrder.self, orderBy: .ascending(\.id), including: \.customer)
    var names = 0
    for order in orders { names &+= order.customer!.name.utf8.count }
    precondition(orders.count == 10_000 && names > 0)
}
if CommandLine.arguments.contains("--including-only") { exit(0) }   // for a profiler
let pool = try! DatabasePool(path: graphPath)
let theirs = timed {
    let orders = try! pool.read { db in
        try GRDBLinkedOrder.including(required: GRDBLinkedOrder.customer).order(Column("id")).asRequest(of: GRDBOrderWithCustomer.self).fetchAll(db)
    }
    var names = 0
    for order in orders { names &+= order.customer.name.utf8.count }
    precondition(orders.count == 10_000 && names > 0)
}
row("10,000 orders with their 1,000 customers (`including: \\.customer` / `including(required:)` into records), each customer's name read, median wall", String(format: "%.1f ms", ours / 1_000), String(format: "%.1f ms", theirs / 1_000), String(format: "%.2f", ours / theirs), "≤ 1.0", ours / theirs <= 1.0)

// 1b. The other way: 1,000 customers with their 10,000 orders, each customer's orders counted
//     and the first one's purchase number read.
if CommandLine.arguments.contains("--children-only") {   // for a profiler
    for _ in 0..<5 { _ = try! store.all(LinkedCustomer.self, orderBy: .ascending(\.id), including: \.orders).map { $0.orders.count } }
    exit(0)
}
let oursChildren = timed {
    let customers = try! store.all(LinkedCustomer.self, orderBy: .ascending(\.id), including: \.orders)
    var total = 0
    for customer in customers { total &+= customer.orders.count &+ (customer.orders.first?.purchaseNum ?? 0) }
    precondition(customers.count == 1_000 && total > 10_000)
}
let theirsChildren = timed {
    let customers = try! pool.read { db in
        try GRDBCustomer.including(all: GRDBCustomer.orders.order(Column("id"))).order(Column("id")).asRequest(of: GRDBCustomerWithOrders.self).fetchAll(db)
    }
    var total = 0
    for customer in customers { total &+= customer.orders.count &+ (customer.orders.first?.purchase_num ?? 0) }
    precondition(customers.count == 1_000 && total > 10_000)
}
row("1,000 customers with their 10,000 orders (`including: \\.orders` / `including(all:)`), each customer's orders counted and the first read, median wall", String(format: "%.1f ms", oursChildren / 1_000), String(format: "%.1f ms", theirsChildren / 1_000), String(format: "%.2f", oursChildren / theirsChildren), "—", nil)

// 2. `order.customer` on a live parent.
let order = try! store.find(LinkedOrder.self, id: 1)!
let customer = order.customer!
let reads = 1_000_000
let perRead = timed {
    for _ in 0..<reads { precondition(order.customer === customer) }
} * 1_000 / Double(reads)
row("`order.customer` on a live parent, per read", String(format: "%.0f ns", perRead), "—", "—", "≤ 1 µs", perRead <= 1_000)
store.close()

// 3. A foreign insert (another connection, as another process writes) into a relationship of
//    100 and of 10,000 children: CPU from the insert to `customer.orders.changes`.
func cpuTime() -> UInt64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (UInt64(usage.ru_utime.tv_sec) * 1_000_000 + UInt64(usage.ru_utime.tv_usec) + UInt64(usage.ru_stime.tv_sec) * 1_000_000 + UInt64(usage.ru_stime.tv_usec)) * 1_000
}

func insertCost(children: Int) -> Double {
    let path = makeDatabase(customers: 1, orders: children)
    let store = try! Store(path: path, migrations: packageMigrations, pollInterval: .milliseconds(1))
    let customer = try! store.find(LinkedCustomer.self, id: 1)!
    let arrived = Atomic<Int>(0)
    let subscription = customer.orders.changes.subscribe(onValue: { change in
        if case .update = change { arrived.add(1, ordering: .releasing) }
    })
    let foreign = try! DatabaseQueue(path: path)
    var samples: [Double] = []
    for round in 0..<rounds {
        let expected = arrived.load(ordering: .acquiring) + 1
        let start = cpuTime()
        try! foreign.write { db in try db.execute(sql: "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (?, 1, 'open', 1)", arguments: [1_000_000 + round]) }
        while arrived.load(ordering: .acquiring) < expected { usleep(50) }
        samples.append(Double(cpuTime() - start) / 1_000)
    }
    subscription.dispose()
    store.close()
    return median(samples)
}
let small = insertCost(children: 100)
let large = insertCost(children: 10_000)
row("a foreign insert reaches `customer.orders.changes`: CPU with 100 children / with 10,000", String(format: "%.0f µs / %.0f µs", small, large), "—", String(format: "%.2f (10,000 / 100)", large / small), "independent of the child count (≤ 1.5)", large / small <= 1.5)
print(table.joined(separator: "\n"))
