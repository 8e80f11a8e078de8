// Live results against GRDB 7.10.0's ValueObservation re-fetch of the same query, one run:
// a 100,000-row result, one row that stays / moves / leaves, a 10,000-row transaction, and the
// heap a result holds per row. Prints a markdown table.
// Usage: swift run -c release ResultsHarness [--quick] [--big-only: the 10,000-row transaction alone, for a profiler]
import BenchmarkModels
import Dispatch
import Foundation
import GRDB
import GRDBModels
import MallocStats
import SignalStore
import Synchronization

typealias Order = BenchOrder

let quick = CommandLine.arguments.contains("--quick")
let rowCount = 100_000
let rounds = quick ? 10 : 40

/// A fresh database with the package's schema and `rows` open orders, `purchase_num` = id, and
/// the index a user adds for the measured query (`status, purchase_num`).
func makeDatabase(rows: Int) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-results-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("bench.sqlite").path
    let store = try! Store(path: path, migrations: packageMigrations)
    try! store.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'open' FROM n;
        CREATE INDEX orders_by_status_purchase ON orders (status, purchase_num);
        """)
    try! store.pruneChanges(through: Int64.max)
    store.close()
    return path
}

func ms(_ microseconds: Double) -> String { String(format: "%.3f ms", microseconds / 1_000) }

var table = [
    "| case | SignalStore | GRDB 7.10.0 | ratio (GRDB / ours) | goal | met |",
    "|---|---|---|---|---|---|",
]
@MainActor func row(_ name: String, _ ours: String, _ theirs: String, _ ratio: String, _ goal: String, _ met: Bool?) {
    table.append("| \(name) | \(ours) | \(theirs) | \(ratio) | \(goal) | \(met.map { $0 ? "yes" : "**no**" } ?? "—") |")
}

/// The three one-row commits, each followed by the one that undoes it.
let cases: [(name: String, sql: String, undo: String)] = [
    ("a row that stays (its note changes)", "UPDATE orders SET note = 'x' WHERE id = 50000", "UPDATE orders SET note = NULL WHERE id = 50000"),
    ("a row that moves (its purchase_num changes)", "UPDATE orders SET purchase_num = 99999 WHERE id = 10", "UPDATE orders SET purchase_num = 10 WHERE id = 10"),
    ("a row that leaves (its status changes)", "UPDATE orders SET status = 'paid' WHERE id = 70000", "UPDATE orders SET status = 'open' WHERE id = 70000"),
]

/// SignalStore: a foreign connection (GRDB's, as another process would be) commits; CPU from
/// the write's start (the write included) to the `.update` in the subscriber, median of `rounds`.
func signalStoreCommitToUpdate() -> (perCase: [Double], perRow: Double) {
    let path = makeDatabase(rows: rowCount)
    let store = try! Store(path: path, migrations: packageMigrations, pollInterval: .milliseconds(1))
    let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
    let arrivals = Arrivals()
    let subscription = open.changes.subscribe(onValue: { change in
        if case .update = change { arrivals.arrive() }
    })
    let foreign = try! DatabaseQueue(path: path)
    func measure(_ sql: String) -> Double {
        arrivals.measure { try! foreign.write { db in try db.execute(sql: sql) } }
    }
    var perCase: [Double] = []
    for (_, sql, undo) in cases where !CommandLine.arguments.contains("--big-only") {
        var samples: [Double] = []
        for _ in 0..<rounds {
            samples.append(measure(sql))
            _ = measure(undo)
        }
        perCase.append(median(samples))
    }
    let big = measure("UPDATE orders SET purchase_num = 200000 - purchase_num WHERE id % 10 = 0")   // 10,000 rows move
    subscription.dispose()
    store.close()
    return (perCase, big / 10_000)
}

/// GRDB: ValueObservation of the same query in a DatabasePool, the same commits through the
/// pool (it observes its own writes only); CPU from the write's start (the write included) to
/// the new value.
func grdbCommitToValue() -> (perCase: [Double], perRow: Double) {
    let path = makeDatabase(rows: rowCount)
    let pool = try! DatabasePool(path: path)
    let arrivals = Arrivals()
    let observation = ValueObservation.tracking { db in
        try GRDBOrder.filter(sql: "status = 'open'").order(sql: "purchase_num, rowid").fetchAll(db)
    }
    let fetched = Atomic<Int>(0)
    let cancellable = observation.start(in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb")), onError: { fatalError("\($0)") }, onChange: { orders in
        fetched.store(orders.count, ordering: .relaxed)
        arrivals.arrive()
    })
    arrivals.waitForFirst()
    func measure(_ sql: String) -> Double {
        arrivals.measure { try! pool.write { db in try db.execute(sql: sql) } }
    }
    var perCase: [Double] = []
    for (_, sql, undo) in cases {
        var samples: [Double] = []
        for _ in 0..<max(3, rounds / 4) {
            samples.append(measure(sql))
            _ = measure(undo)
        }
        perCase.append(median(samples))
    }
    let big = measure("UPDATE orders SET purchase_num = 200000 - purchase_num WHERE id % 10 = 0")
    precondition(fetched.load(ordering: .relaxed) == rowCount, "GRDB's last fetch has \(fetched.load(ordering: .relaxed)) rows")
    cancellable.cancel()
    return (perCase, big / 10_000)
}

/// Heap per row of a 100,000-row result: rowids and keys only, then with every object read.
func memoryPerRow() -> (before: Double, after: Double) {
    let path = makeDatabase(rows: rowCount)
    let store = try! Store(path: path, migrations: packageMigrations)
    let baseline = malloc_stats_bytes_in_use()
    let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
    precondition(open.count == rowCount)
    let unread = malloc_stats_bytes_in_use()
    _ = open.objects
    let read = malloc_stats_bytes_in_use()
    withExtendedLifetime(open) {}
    store.close()
    return (Double(unread - baseline) / Double(rowCount), Double(read - baseline) / Double(rowCount))
}

let ours = signalStoreCommitToUpdate()
if CommandLine.arguments.contains("--big-only") {
    print("10,000-row transaction, CPU per changed row:", String(format: "%.2f µs", ours.perRow))
    exit(0)
}
let theirs = grdbCommitToValue()
for (index, (name, _, _)) in cases.enumerated() {
    let ratio = theirs.perCase[index] / ours.perCase[index]
    row("100,000-row result, \(name): CPU from the write to `.update` (GRDB: to the re-fetched value), median", ms(ours.perCase[index]), ms(theirs.perCase[index]), String(format: "%.0f×", ratio), "≤ 1 ms and ≥ 50×", ours.perCase[index] <= 1_000 && ratio >= 50)
}
row("10,000 rows of the result move in one transaction: CPU per changed row", String(format: "%.2f µs", ours.perRow), String(format: "%.2f µs", theirs.perRow), String(format: "%.1f×", theirs.perRow / ours.perRow), "—", nil)
let memory = memoryPerRow()
row("heap per row of a 100,000-row result, objects not read / every object read", String(format: "%.0f B / %.0f B", memory.before, memory.after), "—", "—", "—", nil)
print(table.joined(separator: "\n"))
