// The queries a screen shows, kept live, against GRDB 7.10.0's ValueObservation of the same query,
// one run: a window (`LIMIT 50`) that a row leaves, a count and a sum after a one-row change, a
// count per group over 1,000 groups, and a list ordered by the customer's name after a rename.
// 100,000 orders of 1,000 customers, with the indexes such queries get. The window and the
// aggregates are measured twice: the store's own write (`store.execute`) beside GRDB's own (its
// pool, which observes only its own writes), then another connection's. CPU of the whole process
// from the write's start to the new value, median. Prints a markdown table.
// Usage: swift run -c release LiveQueriesHarness [--quick] [--own-writes [count|sum|groupedBy] | --floor | --rename]
// (`--own-writes`: only the last rows, the store's own sets with an aggregate live; `--floor`:
// only the floor, 2,000 foreign writes; `--rename`: only SignalStore's renames, 200 times, from
// another connection and by the store's own set; each for a profiler to see nothing else.)
import BenchmarkModels
import Dispatch
import Foundation
import GRDB
import GRDBModels
import SignalStore

@Model(table: "customers")
final class QueryCustomer {
    var id: Int64
    var name: String

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

@Model(table: "orders")
final class QueryOrder {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?
    @Parent(\QueryOrder.customerID) var customer: QueryCustomer?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

let quick = CommandLine.arguments.contains("--quick")
/// `--own-writes count|sum|groupedBy`: only that row (for profiling).
let ownWritesCase = CommandLine.arguments.firstIndex(of: "--own-writes").flatMap { CommandLine.arguments.dropFirst($0 + 1).first { !$0.hasPrefix("--") } }
let rowCount = 100_000
let customerCount = 1_000
let floorOnly = CommandLine.arguments.contains("--floor")
let renameOnly = CommandLine.arguments.contains("--rename")
let rounds = floorOnly ? 2_000 : renameOnly ? 200 : quick ? 8 : 30

/// A fresh database: 100,000 open orders (`purchase_num` = id) of 1,000 customers, and the
/// indexes of the measured queries (the package's on `customer_id`, and `status, purchase_num`).
func makeDatabase() -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-queries-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("bench.sqlite").path
    let store = try! Store(path: path, migrations: packageMigrations)
    try! store.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(customerCount))
        INSERT INTO customers (id, name) SELECT i, printf('customer %04d', i) FROM n;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
        INSERT INTO orders (id, purchase_num, status, customer_id) SELECT i, i, 'open', i % \(customerCount) + 1 FROM n;
        CREATE INDEX orders_by_status_purchase ON orders (status, purchase_num);
        """)
    try! store.pruneChanges(through: Int64.max)
    store.close()
    return path
}

/// One case: a write and the write that undoes it, measured in turns.
struct Case {
    let name: String
    let write: String
    let undo: String
    let goal: Double   // µs
}

/// Median CPU µs from each of `rounds` writes of `change` (by `execute`) to the value it causes.
func measure(_ change: Case, rounds: Int, arrivals: Arrivals, execute: (String) -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        samples.append(arrivals.measure { execute(change.write) })
        _ = arrivals.measure { execute(change.undo) }
    }
    return median(samples)
}

/// CPU µs from starting the last live query to its first value (the rows read, and for a
/// list its objects), ours and GRDB's.
nonisolated(unsafe) var firstValue = (ours: 0.0, theirs: 0.0)

/// Who writes a case's SQL for SignalStore.
enum Writer {
    /// Another connection (GRDB's `DatabaseQueue`), as another process would.
    case anotherConnection
    /// The store itself (`store.execute`), as GRDB's pool writes for GRDB.
    case theStore
}

/// SignalStore: the live query `start` makes, `writer` writing.
func ours(_ change: Case, writer: Writer = .anotherConnection, _ start: (Store, Arrivals) -> any Disposable) -> Double {
    let path = makeDatabase()
    let store = try! Store(path: path, migrations: packageMigrations)
    let arrivals = Arrivals()
    let started = cpuTime()
    let subscription = start(store, arrivals)
    arrivals.waitForFirst()
    firstValue.ours = Double(cpuTime() - started) / 1_000
    let cost: Double
    switch writer {
    case .anotherConnection:
        let foreign = try! DatabaseQueue(path: path)
        cost = measure(change, rounds: rounds, arrivals: arrivals) { sql in try! foreign.write { try $0.execute(sql: sql) } }
    case .theStore:
        cost = measure(change, rounds: rounds, arrivals: arrivals) { sql in try! store.execute(sql) }
    }
    subscription.dispose()
    store.close()
    return cost
}

/// GRDB: a ValueObservation of `fetch` in a pool, writes through the pool.
func theirs<Value: Sendable>(_ change: Case, _ fetch: @escaping @Sendable (GRDB.Database) throws -> Value) -> Double {
    let path = makeDatabase()
    let pool = try! DatabasePool(path: path)
    let arrivals = Arrivals()
    let started = cpuTime()
    let cancellable = ValueObservation.tracking(fetch).start(
        in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb")), onError: { fatalError("\($0)") }, onChange: { _ in arrivals.arrive() }
    )
    arrivals.waitForFirst()
    firstValue.theirs = Double(cpuTime() - started) / 1_000
    let cost = measure(change, rounds: max(3, rounds / 3), arrivals: arrivals) { sql in try! pool.write { try $0.execute(sql: sql) } }
    cancellable.cancel()
    return cost
}

/// Counts each value after the first (the replayed one) as an arrival.
func arrivals<Value>(_ signal: Signal<Value, Never>, _ arrivals: Arrivals) -> any Disposable {
    signal.subscribe(onValue: { _ in arrivals.arrive() })
}

var table = [
    "| live query over 100,000 orders | SignalStore | GRDB 7.10.0 | ratio (GRDB / ours) | goal | met |",
    "|---|---|---|---|---|---|",
]
@MainActor func row(_ change: Case, _ ours: Double, _ theirs: Double) {
    let ratio = theirs / ours
    let met = ours <= change.goal
    table.append("| \(change.name) | \(String(format: "%.3f ms", ours / 1_000)) | \(String(format: "%.3f ms", theirs / 1_000)) | \(String(format: ratio < 10 ? "%.1f×" : "%.0f×", ratio)) | ≤ \(String(format: "%g", change.goal / 1_000)) ms | \(met ? "yes" : "**no**") |")
}

/// A row measured with both writers: the store's own write beside GRDB's own (the goal's row),
/// then another connection's write, whose own cost is in the floor's rows.
@MainActor func rows(_ change: Case, _ start: (Store, Arrivals) -> any Disposable, theirs: Double) {
    row(Case(name: "\(change.name): the store's own write (`store.execute`), GRDB's own (`pool.write`)", write: change.write, undo: change.undo, goal: change.goal),
        ours(change, writer: .theStore, start), theirs)
    let foreign = ours(change, writer: .anotherConnection, start)
    table.append("| \(change.name): another connection's write (its own cost is in the floor's rows) | \(String(format: "%.3f ms", foreign / 1_000)) | — | — | — | — |")
}

/// The row of the rename's list opening: its 100,000 objects read and placed.
let openingRow = "100,000 orders by customer name, every object read"
// Every order by its customer's name: a customer renamed past every other, and back.
let renamed = Case(name: "100,000 orders by customer name, a customer (100 orders) renamed to the end", write: "UPDATE customers SET name = 'zz' WHERE id = 5", undo: "UPDATE customers SET name = 'customer 0005' WHERE id = 5", goal: 1_000)
/// The row of the rename by the store's own set, the path an app takes.
let renamedByTheStoreRow = "100,000 orders by customer name, the app renames the customer (`customer.name = …`, 100 orders) to the end"
if renameOnly {
    let cost = oursRenamed()
    table.append("| \(renamed.name) | \(String(format: "%.3f ms", cost / 1_000)) | — | — | ≤ 1 ms | \(cost <= renamed.goal ? "yes" : "**no**") |")
    table.append("| of which the other connection's rename itself (no store open) | \(String(format: "%.3f ms", foreignWriteAlone(renamed) / 1_000)) | — | — | — | — |")
    let byTheStore = oursRenamedByTheStore()
    table.append("| \(renamedByTheStoreRow) | \(String(format: "%.3f ms", byTheStore / 1_000)) | — | — | ≤ 1 ms | \(byTheStore <= renamed.goal ? "yes" : "**no**") |")
    table.append("| \(openingRow): its first value | \(String(format: "%.1f ms", firstValue.ours / 1_000)) | — | — | — | — |")
    print(table.joined(separator: "\n"))
    exit(0)
}
if floorOnly {
    floorRow()
    print(table.joined(separator: "\n"))
    exit(0)
}
if CommandLine.arguments.contains("--own-writes") {
    ownWriteRows()
    print(table.joined(separator: "\n"))
    exit(0)
}

// A window: the first 50 open orders by purchase; the third leaves, and comes back.
let window = Case(name: "`limit: 50` window, a row leaves (the next one comes in)", write: "UPDATE orders SET status = 'paid' WHERE id = 3", undo: "UPDATE orders SET status = 'open' WHERE id = 3", goal: 1_000)
rows(window, { store, arrived in
    arrivals(store.results(QueryOrder.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum), limit: 50).changes, arrived)
}, theirs: theirs(window) { db in try GRDBOrder.fetchAll(db, sql: "SELECT * FROM orders WHERE status = 'open' ORDER BY purchase_num, rowid LIMIT 50") })

// A count and a sum of the open orders after one order changes.
let count = Case(name: "live `count` of open orders, one leaves", write: "UPDATE orders SET status = 'paid' WHERE id = 70000", undo: "UPDATE orders SET status = 'open' WHERE id = 70000", goal: 50)
rows(count, { store, arrived in arrivals(store.count(QueryOrder.self, where: \.status == "open"), arrived) },
     theirs: theirs(count) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM orders WHERE status = 'open'") })
let sum = Case(name: "live `sum` of open orders' purchases, one changes", write: "UPDATE orders SET purchase_num = purchase_num + 1 WHERE id = 50000", undo: "UPDATE orders SET purchase_num = purchase_num - 1 WHERE id = 50000", goal: 50)
rows(sum, { store, arrived in arrivals(store.sum(\QueryOrder.purchaseNum, where: \.status == "open"), arrived) },
     theirs: theirs(sum) { db in try Int.fetchOne(db, sql: "SELECT sum(purchase_num) FROM orders WHERE status = 'open'") })

// Orders per customer (1,000 groups) after an order moves to another customer.
let grouped = Case(name: "live `count(groupedBy:)` over 1,000 customers, an order moves", write: "UPDATE orders SET customer_id = 7 WHERE id = 12345", undo: "UPDATE orders SET customer_id = 346 WHERE id = 12345", goal: 50)
rows(grouped, { store, arrived in arrivals(store.count(QueryOrder.self, groupedBy: \.customerID), arrived) },
     theirs: theirs(grouped) { db in
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT customer_id, count(*) FROM orders GROUP BY customer_id").map { row -> (Int64?, Int) in (row[0], row[1]) })
    })

func oursRenamed() -> Double {
    ours(renamed) { store, arrived in
        arrivals(store.results(QueryOrder.self, orderBy: .parent(\QueryOrder.customer, .ascending(\QueryCustomer.name))).changes, arrived)
    }
}
/// SignalStore, the rename an app makes: `customer.name = …` on the live object, the list
/// ordered by the customers' names beside it. Median CPU µs from the set to the list's update.
func oursRenamedByTheStore() -> Double {
    let store = try! Store(path: makeDatabase(), migrations: packageMigrations)
    let arrived = Arrivals()
    let subscription = arrivals(store.results(QueryOrder.self, orderBy: .parent(\QueryOrder.customer, .ascending(\QueryCustomer.name))).changes, arrived)
    arrived.waitForFirst()
    let customer = try! store.find(QueryCustomer.self, id: 5)!
    var samples: [Double] = []
    for _ in 0..<rounds {
        samples.append(arrived.measure { customer.name = "zz" })
        _ = arrived.measure { customer.name = "customer 0005" }
    }
    subscription.dispose()
    store.close()
    return median(samples)
}
row(renamed, oursRenamed(), theirs(renamed) { db in
    try GRDBOrder.fetchAll(db, sql: "SELECT orders.* FROM orders LEFT JOIN customers ON customers.id = orders.customer_id ORDER BY customers.name, orders.rowid")
})
let renamedByTheStore = oursRenamedByTheStore()
table.append("| \(renamedByTheStoreRow) | \(String(format: "%.3f ms", renamedByTheStore / 1_000)) | — | — | ≤ 1 ms | \(renamedByTheStore <= renamed.goal ? "yes" : "**no**") |")
table.append("| \(openingRow): its first value | \(String(format: "%.1f ms", firstValue.ours / 1_000)) | \(String(format: "%.1f ms", firstValue.theirs / 1_000)) | \(String(format: "%.1f×", firstValue.theirs / firstValue.ours)) | — | — |")

// The floor under every row above: a foreign write reaching a change-feed subscriber.
@MainActor func floorRow() {
    let floorCase = Case(name: "floor: another connection's one-row write reaching the change feed", write: "UPDATE orders SET note = 'x' WHERE id = 3", undo: "UPDATE orders SET note = NULL WHERE id = 3", goal: .infinity)
    let floor = ours(floorCase) { store, arrived in
        arrived.arrive()   // the feed replays nothing: count the start as the first value
        return store.changes().subscribe(onValue: { _ in arrived.arrive() })
    }
    table.append("| \(floorCase.name) | \(String(format: "%.3f ms", floor / 1_000)) | — | — | — | — |")
    let write = foreignWriteAlone(floorCase)
    table.append("| of which the other connection's write itself (no store open) | \(String(format: "%.3f ms", write / 1_000)) | — | — | — | — |")
    let own = ours(floorCase, writer: .theStore) { store, arrived in
        arrived.arrive()
        return store.changes().subscribe(onValue: { _ in arrived.arrive() })
    }
    table.append("| floor: the store's own one-row write (`store.execute`) reaching the change feed | \(String(format: "%.3f ms", own / 1_000)) | — | — | — | — |")
}

/// Median CPU µs of `change`'s write through another connection with no store open: the part of
/// every row above that is the writer's, not the store's.
func foreignWriteAlone(_ change: Case) -> Double {
    let foreign = try! DatabaseQueue(path: makeDatabase())
    var samples: [Double] = []
    for _ in 0..<rounds {
        let started = cpuTime()
        try! foreign.write { try $0.execute(sql: change.write) }
        samples.append(Double(cpuTime() - started) / 1_000)
        try! foreign.write { try $0.execute(sql: change.undo) }
    }
    return median(samples)
}
floorRow()

/// The measured sets of ``ownWrites(_:)``: a function of its own, so callgrind can count them
/// alone (`--toggle-collect` on its symbol), without the warm-up's first delivery.
@inline(never) func measuredStatusSets(_ order: QueryOrder, _ sets: Int) {
    for n in 0..<sets { order.status = n % 2 == 0 ? "paid" : "open" }
}

/// CPU µs per `order.status = …` by the store itself (toggling one order), with `live` beside it.
func ownWrites(_ live: (Store) -> (any Disposable)?) -> Double {
    let store = try! Store(path: makeDatabase(), migrations: packageMigrations)
    let subscription = live(store)
    let order = try! store.find(QueryOrder.self, id: 70_000)!
    let sets = quick ? 500 : 2_000
    for n in 0..<200 { order.status = n % 2 == 0 ? "paid" : "open" }
    let started = cpuTime()
    measuredStatusSets(order, sets)
    let elapsed = Double(cpuTime() - started) / 1_000 / Double(sets)
    subscription?.dispose()
    store.close()
    return elapsed
}
/// The rows of the store's own sets with an aggregate live, against the bare set. The bare set
/// is measured again right before each case, in rounds, and each row is the median of those
/// differences: this machine's speed swings by a third between runs, and a bare set measured
/// once, minutes before, made the difference swing as much. `--quick` runs one round, as
/// callgrind counts it (the bare set, then the case).
@MainActor func ownWriteRows() {
    typealias OwnWriteCase = (key: String, name: String, live: (Store) -> (any Disposable)?)
    let all: [OwnWriteCase] = [
        ("count", "live `count` of open orders", { store in store.count(QueryOrder.self, where: \.status == "open").subscribe(onValue: { _ in }) }),
        ("sum", "live `sum` of open orders' purchases", { store in store.sum(\QueryOrder.purchaseNum, where: \.status == "open").subscribe(onValue: { _ in }) }),
        ("groupedBy", "live `count(groupedBy: customerID)` of open orders, 1,000 groups", { store in store.count(QueryOrder.self, where: \.status == "open", groupedBy: \.customerID).subscribe(onValue: { _ in }) }),
    ]
    let cases = all.filter { entry in ownWritesCase.map { $0 == entry.key } ?? true }
    guard !cases.isEmpty else { _ = ownWrites { _ in nil }; return }   // `--own-writes none`: the bare set alone
    let rounds = quick ? 1 : 5
    var bare: [Double] = []
    var beyond = [[Double]](repeating: [], count: cases.count)
    for _ in 0..<rounds {
        for index in cases.indices {
            let alone = ownWrites { _ in nil }
            bare.append(alone)
            beyond[index].append(ownWrites(cases[index].live) - alone)
        }
    }
    for index in cases.indices {
        let cost = median(beyond[index])
        let spread = String(format: "%.1f–%.1f", beyond[index].min()!, beyond[index].max()!)
        table.append("| \(cases[index].name), the store's own `order.status = …`: CPU beyond the bare set (\(String(format: "%.1f µs", median(bare))), median of \(rounds * cases.count)) | \(String(format: "%.1f µs", cost)) (\(rounds) rounds: \(spread)) | — | — | ≤ 50 µs | \(cost <= 50 ? "yes" : "**no**") |")
    }
}
ownWriteRows()

print(table.joined(separator: "\n"))
