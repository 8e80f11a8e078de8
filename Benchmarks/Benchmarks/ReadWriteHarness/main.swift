// Reads beside writes, the write path and live queries: SignalStore against GRDB 7.10.0 and the
// raw SQLite C API, same schema (with the journal trigger), same settings, one run. Prints a
// markdown table. Usage: swift run -c release ReadWriteHarness [--quick] [--only reads|writes|queries]
import BenchmarkModels
import Dispatch
import Foundation
import GRDB
import GRDBModels
import GRDBSQLite
import SignalStore
import Synchronization

typealias Order = BenchOrder

enum Setting {
    static let migrations = packageMigrations
    static let quick = CommandLine.arguments.contains("--quick")
    static let rowCount = 10_000
    static let readSeconds = quick ? 2.0 : 5.0
    /// The calling thread's CPU time with `--thread-cpu`, else the process's.
    static let cpuClock = CommandLine.arguments.contains("--thread-cpu") ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID
}
let quick = Setting.quick

// MARK: - Helpers

/// A fresh database with the package's schema, the journal's triggers and `rows` orders.
func makeDatabase(rows: Int) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-harness-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("bench.sqlite").path
    let store = try! Store(path: path, migrations: Setting.migrations)
    try! store.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n
        """)
    try! store.pruneChanges(through: Int64.max)
    store.close()
    return path
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of the process so far, in nanoseconds.
func cpuTime() -> UInt64 {
    var spec = timespec()
    clock_gettime(Setting.cpuClock, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func format(_ microseconds: Double) -> String {
    microseconds >= 100 ? String(format: "%.0f µs", microseconds) : String(format: "%.2f µs", microseconds)
}

func ms(_ microseconds: Double) -> String { String(format: "%.2f ms", microseconds / 1_000) }

final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Runs `writer` on its own thread until stopped, and `read` open loop, one due every
/// millisecond for `seconds`; returns each read's latency from when it was due, in µs.
func openLoopReadLatency(seconds: Double, writer: @escaping @Sendable (Flag) -> Void, read: () -> Void) -> [Double] {
    let stop = Flag()
    let writerDone = DispatchSemaphore(value: 0)
    Thread { writer(stop); writerDone.signal() }.start()
    usleep(200_000)   // the writer is in its stride
    var latencies: [Double] = []
    let start = now()
    let count = Int(seconds * 1_000)
    for index in 0..<count {
        let due = start + UInt64(index) * 1_000_000
        let current = now()
        if current < due { usleep(UInt32((due - current) / 1_000)) }
        read()
        latencies.append(Double(now() - due) / 1_000)
    }
    stop.set()
    writerDone.wait()
    return latencies
}

var table: [String] = ["| measure | SignalStore | peer | ratio | goal | met |", "|---|---:|---:|---:|---:|:---:|"]
@MainActor func row(_ measure: String, _ ours: String, _ peer: String, _ ratio: String, _ goal: String, _ met: Bool?) {
    table.append("| \(measure) | \(ours) | \(peer) | \(ratio) | \(goal) | \(met.map { $0 ? "yes" : "no" } ?? "—") |")
}

// MARK: - Reads beside a writer


/// `live`: objects kept alive meanwhile (views bound to them), so the writer reads and applies
/// every journal entry it commits.
func signalStoreReadLatency(live: Int) -> [Double] {
    let path = makeDatabase(rows: Setting.rowCount)
    let store = try! Store(path: path, migrations: Setting.migrations)
    defer { store.close() }
    let kept = live == 0 ? [] : try! store.all(Order.self, where: "id <= ?", arguments: [.integer(Int64(live))])
    defer { withExtendedLifetime(kept) {} }
    return openLoopReadLatency(seconds: Setting.readSeconds, writer: { stop in
        var n = 0
        while !stop.isSet {
            try! store.transaction {
                for _ in 0..<10_000 {
                    n += 1
                    try store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(Int64(n)), .integer(Int64(n % Setting.rowCount + 1))])
                }
            }
        }
    }, read: {
        _ = try! store.find(Order.self, id: Int64.random(in: 1...Int64(Setting.rowCount)))
    })
}

func grdbConfiguration() -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous=NORMAL") }
    return configuration
}

func grdbReadLatency(_ writer: some DatabaseWriter, read: @escaping (Int64) throws -> Void) -> [Double] {
    openLoopReadLatency(seconds: Setting.readSeconds, writer: { stop in
        var n = 0
        while !stop.isSet {
            try! writer.write { db in
                let statement = try db.cachedStatement(sql: "UPDATE orders SET purchase_num = ? WHERE id = ?")
                for _ in 0..<10_000 {
                    n += 1
                    try statement.execute(arguments: [n, n % Setting.rowCount + 1])
                }
            }
        }
    }, read: {
        try! read(Int64.random(in: 1...Int64(Setting.rowCount)))
    })
}

@MainActor func readBenchmarks() {
    let ours = signalStoreReadLatency(live: 0)
    let oursLive = signalStoreReadLatency(live: 100)
    let oursThousand = signalStoreReadLatency(live: 1_000)
    let poolPath = makeDatabase(rows: Setting.rowCount)
    let pool = try! DatabasePool(path: poolPath, configuration: grdbConfiguration())
    let poolLatency = grdbReadLatency(pool) { id in _ = try pool.read { db in try GRDBOrder.fetchOne(db, key: id) } }
    let queuePath = makeDatabase(rows: Setting.rowCount)
    let queue = try! DatabaseQueue(path: queuePath, configuration: grdbConfiguration())
    let queueLatency = grdbReadLatency(queue) { id in _ = try queue.read { db in try GRDBOrder.fetchOne(db, key: id) } }
    let (p50, p99) = (percentile(ours, 0.5), percentile(ours, 0.99))
    let (pool50, pool99) = (percentile(poolLatency, 0.5), percentile(poolLatency, 0.99))
    row("point read (`find`) beside 10,000-update transactions, p50 (vs GRDB `DatabasePool.read`)", ms(p50), ms(pool50), String(format: "%.2f", p50 / pool50), "—", nil)
    row("same, p99 (vs GRDB `DatabasePool.read`)", ms(p99), ms(pool99), String(format: "%.2f", p99 / pool99), "≤ 1 ms and ≤ 1.0", p99 <= 1_000 && p99 <= pool99)
    let (live50, live99) = (percentile(oursLive, 0.5), percentile(oursLive, 0.99))
    row("same, 100 objects live (the writer applies each entry to them), p50 / p99 (vs GRDB `DatabasePool.read`)", "\(ms(live50)) / \(ms(live99))", "\(ms(pool50)) / \(ms(pool99))", String(format: "%.2f", live99 / pool99), "≤ 1 ms and ≤ 1.0", live99 <= 1_000 && live99 <= pool99)
    let (thousand50, thousand99) = (percentile(oursThousand, 0.5), percentile(oursThousand, 0.99))
    row("same, 1,000 objects live (each commit changes every one of them), p50 / p99 (vs GRDB `DatabasePool.read`)", "\(ms(thousand50)) / \(ms(thousand99))", "\(ms(pool50)) / \(ms(pool99))", String(format: "%.2f", thousand99 / pool99), "≤ 1 ms and ≤ 1.0", thousand99 <= 1_000 && thousand99 <= pool99)
    row("same, p50 / p99 (vs GRDB `DatabaseQueue.read`)", "\(ms(p50)) / \(ms(p99))", "\(ms(percentile(queueLatency, 0.5))) / \(ms(percentile(queueLatency, 0.99)))", String(format: "%.3f", p99 / percentile(queueLatency, 0.99)), "—", nil)
}

// MARK: - The write path (CPU time)

/// CPU µs per raw C autocommit `UPDATE` with the journal trigger, or per update inside one
/// transaction of `count`; the updates cycle over the first `rows` rows of a table of `rows`
/// (one row when `rows` is 10, the small case). With `only`, they update that row of that
/// database instead.
func rawC(count: Int, oneTransaction: Bool, rows: Int = 10, only: (path: String, row: Int)? = nil) -> Double {
    let path = only?.path ?? makeDatabase(rows: rows)
    var db: OpaquePointer?
    sqlite3_open(path, &db)
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nil, nil, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(db, "UPDATE orders SET purchase_num = ? WHERE rowid = ?", -1, &statement, nil)
    let started = cpuTime()
    let cycle = only != nil || rows == 10 ? 1 : rows
    measuredRawUpdates(db, statement, count: count, oneTransaction: oneTransaction, cycle: cycle, first: only?.row ?? 1)
    let elapsed = cpuTime() - started
    sqlite3_finalize(statement)
    sqlite3_close(db)
    return Double(elapsed) / 1_000 / Double(count)
}

/// The measured loop of ``rawC(count:oneTransaction:)``: a function of its own, so callgrind
/// can count its instructions alone (`write_path_instructions.py`).
@inline(never)
func measuredRawUpdates(_ db: OpaquePointer?, _ statement: OpaquePointer?, count: Int, oneTransaction: Bool, cycle: Int, first: Int) {
    if oneTransaction { sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) }
    for n in 1...count {
        sqlite3_bind_int64(statement, 1, Int64(n))
        sqlite3_bind_int64(statement, 2, Int64(n % cycle + first))
        guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
        sqlite3_reset(statement)
    }
    if oneTransaction { sqlite3_exec(db, "COMMIT", nil, nil, nil) }
}

/// The measured loop of ``modelSets(count:subscribers:oneTransaction:)``: the sets cycle over
/// `orders`.
@inline(never)
func measuredModelSets(_ store: Store, _ orders: [Order], count: Int, oneTransaction: Bool) {
    if oneTransaction {
        try! store.transaction { for n in 1...count { orders[n % orders.count].purchaseNum = n } }
    } else {
        for n in 1...count { orders[n % orders.count].purchaseNum = n }
    }
}

/// CPU µs per `order.purchaseNum = n` with `subscribers` subscribers, alone or `count` in one
/// transaction. With `live` objects (and as many rows), the sets cycle over them, one
/// subscriber each: an app's list of orders rather than one order.
func modelSets(count: Int, subscribers: Int, oneTransaction: Bool, live: Int = 1) -> Double {
    let path = makeDatabase(rows: max(10, live))
    let store = try! Store(path: path, migrations: Setting.migrations)
    defer { store.close() }
    let orders = live == 1 ? [try! store.find(Order.self, id: 1)!] : try! store.all(Order.self, where: "id <= ?", arguments: [.integer(Int64(live))], orderBy: "id")
    let received = Atomic<Int>(0)
    let subscriptions = orders.flatMap { order in
        (0..<subscribers).map { _ in order.signal(for: \.purchaseNum).subscribe(onValue: { _ in received.add(1, ordering: .relaxed) }) }
    }
    let started = cpuTime()
    measuredModelSets(store, orders, count: count, oneTransaction: oneTransaction)
    let elapsed = cpuTime() - started
    let replays = subscribers * orders.count
    let expected = replays + subscribers * (oneTransaction ? min(count, orders.count) : count)
    precondition(received.load(ordering: .relaxed) == expected, "subscribers missed values")
    subscriptions.forEach { $0.dispose() }
    return Double(elapsed) / 1_000 / Double(count)
}

/// A new store in `directory` that inserted its 1,000 orders itself, one commit each, as an app
/// does (its journal holds their inserts).
func storeThatInsertedItsOrders(in directory: URL) -> Store {
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try! Store(path: directory.appendingPathComponent("bench.sqlite").path, migrations: Setting.migrations)
    for id in 1...1_000 { try! store.insert(Order(id: Int64(id), purchaseNum: 0, status: "open")) }
    return store
}

/// A store that inserted its 1,000 orders itself, and order 500 of it with one subscriber: the
/// sets of ``modelSetsInAGrowingStore(count:)`` and ``growingInTurns(count:rounds:)`` go to it,
/// with no reopen and no prune, so the journal grows as an app's does.
final class GrowingStore {
    let store: Store
    private let order: Order
    /// The values the subscriber heard.
    private final class Heard: Sendable {
        let count = Atomic<Int>(0)
    }
    private let heard = Heard()
    private var subscription: (any Disposable)?
    private var sets = 0

    init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-growing-\(UUID().uuidString)")
        store = storeThatInsertedItsOrders(in: directory)
        order = try! store.find(Order.self, id: 500)!
        subscription = order.signal(for: \.purchaseNum).subscribe(onValue: { [heard] _ in heard.count.add(1, ordering: .relaxed) })
    }

    /// CPU ns of `count` more sets of the order.
    func measureSets(_ count: Int) -> UInt64 {
        let started = cpuTime()
        measuredModelSets(store, [order], count: count, oneTransaction: false)
        let elapsed = cpuTime() - started
        sets += count
        return elapsed
    }

    /// Checks that the subscriber heard every set, and closes the store.
    func close() {
        precondition(heard.count.load(ordering: .relaxed) == 1 + sets, "the subscriber missed values")
        subscription?.dispose()
        store.close()
    }
}

/// CPU µs per `order.purchaseNum = n` (one subscriber) in a store that inserted its 1,000 orders
/// itself and then sets one of them `count` times in a row, with no reopen and no prune: the
/// journal grows as an app's does.
func modelSetsInAGrowingStore(count: Int) -> Double {
    let growing = GrowingStore()
    defer { growing.close() }
    return Double(growing.measureSets(count)) / 1_000 / Double(count)
}

/// ``modelSetsInAGrowingStore(count:)`` and its baseline (``rawCInAStoreInsertedDatabase(count:)``)
/// measured in turns: `rounds` rounds of `count / rounds` sets each, a round of the store's sets,
/// then one of raw C's, so both meet the machine's changing speed alike (one side's 100,000 sets
/// take seconds, and the speed of this virtual machine swings within that). Each side keeps its
/// database open throughout: the store's sets are still 100,000 in a row, with no reopen and no
/// prune. Returns the CPU µs per set of each side, summed over the rounds, and each round's ratio.
func growingInTurns(count: Int, rounds: Int) -> (ours: Double, raw: Double, ratios: [Double]) {
    let growing = GrowingStore()
    defer { growing.close() }
    let rawDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-growing-raw-\(UUID().uuidString)")
    storeThatInsertedItsOrders(in: rawDirectory).close()
    var db: OpaquePointer?
    sqlite3_open(rawDirectory.appendingPathComponent("bench.sqlite").path, &db)
    defer { sqlite3_close(db) }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nil, nil, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(db, "UPDATE orders SET purchase_num = ? WHERE rowid = ?", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    let perRound = count / rounds
    var ours: UInt64 = 0, raw: UInt64 = 0, ratios: [Double] = []
    for _ in 0..<rounds {
        let oursRound = growing.measureSets(perRound)
        let rawStarted = cpuTime()
        measuredRawUpdates(db, statement, count: perRound, oneTransaction: false, cycle: 1, first: 500)
        let rawRound = cpuTime() - rawStarted
        ours += oursRound
        raw += rawRound
        ratios.append(Double(oursRound) / Double(rawRound))
    }
    let sets = Double(perRound * rounds)
    return (Double(ours) / 1_000 / sets, Double(raw) / 1_000 / sets, ratios)
}

/// ``modelSetsInAGrowingStore(count:)``'s baseline: raw C autocommit updates of the same row in
/// a database built the same way (a store inserted its 1,000 orders itself, then closed), so
/// both write the same pages. SQLite's write-ahead log index finds a frame's slot by probing
/// past the earlier frames of pages whose slots lie near, which costs more the more often a
/// commit writes the same pages, and depends on their numbers: a baseline cycling over 1,000
/// rows of another file measures other pages.
func rawCInAStoreInsertedDatabase(count: Int) -> Double {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-growing-raw-\(UUID().uuidString)")
    storeThatInsertedItsOrders(in: directory).close()
    return rawC(count: count, oneTransaction: false, only: (directory.appendingPathComponent("bench.sqlite").path, 500))
}

@MainActor func writeBenchmarks() {
    // Single writes swing with the disk: rounds alternate raw C and SignalStore, and the
    // medians are compared.
    var rawRounds: [Double] = []
    var ourRounds: [Double] = []
    for _ in 0..<(quick ? 3 : 7) {
        rawRounds.append(rawC(count: 2_000, oneTransaction: false))
        ourRounds.append(modelSets(count: 2_000, subscribers: 1, oneTransaction: false))
    }
    let rawSingle = percentile(rawRounds, 0.5)
    let single = percentile(ourRounds, 0.5)
    row("`order.purchaseNum = n`, 1 subscriber, CPU per set (vs raw C autocommit UPDATE + trigger)", format(single), format(rawSingle), String(format: "%.2f", single / rawSingle), "≤ 1.25", single / rawSingle <= 1.25)
    let batch = quick ? 20_000 : 100_000
    let rawBatch = rawC(count: batch, oneTransaction: true)
    let batched = modelSets(count: batch, subscribers: 1, oneTransaction: true)
    row("\(batch.formatted()) sets in one transaction, CPU per set (vs raw C in one transaction + trigger)", format(batched), format(rawBatch), String(format: "%.2f", batched / rawBatch), "≤ 2", batched / rawBatch <= 2)
    // An app's list: 1,000 live orders of a 1,000-row table, one subscriber each, the sets
    // cycling over them (the raw C baseline cycles over the same rows).
    var rawManyRounds: [Double] = []
    var manyRounds: [Double] = []
    for _ in 0..<(quick ? 3 : 7) {
        rawManyRounds.append(rawC(count: 2_000, oneTransaction: false, rows: 1_000))
        manyRounds.append(modelSets(count: 2_000, subscribers: 1, oneTransaction: false, live: 1_000))
    }
    let rawMany = percentile(rawManyRounds, 0.5)
    let many = percentile(manyRounds, 0.5)
    row("the same over 1,000 live orders (a 1,000-row table, one subscriber each)", format(many), format(rawMany), String(format: "%.2f", many / rawMany), "≤ 1.25", many / rawMany <= 1.25)
    let rawManyBatch = rawC(count: batch, oneTransaction: true, rows: 1_000)
    let manyBatch = modelSets(count: batch, subscribers: 1, oneTransaction: true, live: 1_000)
    row("\(batch.formatted()) sets over 1,000 live orders in one transaction", format(manyBatch), format(rawManyBatch), String(format: "%.2f", manyBatch / rawManyBatch), "≤ 2", manyBatch / rawManyBatch <= 2)
    let inARow = quick ? 20_000 : 100_000
    let rawInARow = rawC(count: inARow, oneTransaction: false, rows: 1_000)
    let rawSameRow = rawCInAStoreInsertedDatabase(count: inARow)
    let growing = modelSetsInAGrowingStore(count: inARow)
    row("\(inARow.formatted()) sets of one object in a row, in a store that inserted its 1,000 orders itself (no reopen, no prune), vs raw C cycling over a fresh 1,000-row table", format(growing), format(rawInARow), String(format: "%.2f", growing / rawInARow), "≤ 1.25", growing / rawInARow <= 1.25)
    row("the same vs raw C updating the same row of a database built the same way (the same pages)", format(growing), format(rawSameRow), String(format: "%.2f", growing / rawSameRow), "≤ 1.25", growing / rawSameRow <= 1.25)
    let turns = growingInTurns(count: inARow, rounds: 10)
    let sorted = turns.ratios.sorted()
    row("the same two, in turns of \((inARow / 10).formatted()) sets (rounds' ratios \(String(format: "%.2f", sorted.first!))–\(String(format: "%.2f", sorted.last!)), median \(String(format: "%.2f", percentile(turns.ratios, 0.5))))", format(turns.ours), format(turns.raw), String(format: "%.2f", turns.ours / turns.raw), "≤ 1.25", turns.ours / turns.raw <= 1.25)
    let fanOut = modelSets(count: quick ? 200 : 1_000, subscribers: 1_000, oneTransaction: false)
    let goal = 1.5 * single + 50
    row("one set reaching 1,000 subscribers, CPU per set (vs 1.5 × single set + 50 µs)", format(fanOut), format(goal), String(format: "%.2f", fanOut / goal), "≤ 1", fanOut <= goal)
}

// MARK: - Live queries

@MainActor func liveQueryBenchmarks() {
    let rounds = quick ? 5 : 20
    // SignalStore: a query signal over 1,000 open orders; each round commits 1,000 new ones.
    let path = makeDatabase(rows: 1_000)
    let store = try! Store(path: path, migrations: Setting.migrations)
    let results = Atomic<Int>(0)
    let arrived = DispatchSemaphore(value: 0)
    let subscription = store.signal(Order.self, where: "status = 'open'", orderBy: "id").subscribe(onValue: { _ in
        results.add(1, ordering: .relaxed)
        arrived.signal()
    })
    arrived.wait()
    var ours: [Double] = []
    for round in 0..<rounds {
        let base = 1_000 + round * 1_000
        let started = now()
        try! store.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
            INSERT INTO orders (id, purchase_num, status) SELECT \(base) + i, 0, 'open' FROM n
            """)
        arrived.wait()
        ours.append(Double(now() - started) / 1_000)
    }
    let perCommit = Double(results.load(ordering: .relaxed) - 1) / Double(rounds)
    subscription.dispose()
    store.close()

    // GRDB: ValueObservation of the same query, same commits.
    let grdbPath = makeDatabase(rows: 1_000)
    let pool = try! DatabasePool(path: grdbPath, configuration: grdbConfiguration())
    let fetches = Atomic<Int>(0)
    let grdbArrived = DispatchSemaphore(value: 0)
    let observation = ValueObservation.tracking { db -> [GRDBOrder] in
        fetches.add(1, ordering: .relaxed)
        return try GRDBOrder.filter(sql: "status = 'open'").order(sql: "id").fetchAll(db)
    }
    let cancellable = observation.start(in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb")), onError: { fatalError("\($0)") }, onChange: { _ in grdbArrived.signal() })
    grdbArrived.wait()
    let fetchesBefore = fetches.load(ordering: .relaxed)
    var theirs: [Double] = []
    for round in 0..<rounds {
        let base = 1_000 + round * 1_000
        let started = now()
        try! pool.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
                INSERT INTO orders (id, purchase_num, status) SELECT \(base) + i, 0, 'open' FROM n
                """)
        }
        grdbArrived.wait()
        theirs.append(Double(now() - started) / 1_000)
    }
    let grdbPerCommit = Double(fetches.load(ordering: .relaxed) - fetchesBefore) / Double(rounds)
    cancellable.cancel()
    let (median, peerMedian) = (percentile(ours, 0.5), percentile(theirs, 0.5))
    row("query signal over 1,000+ rows, a 1,000-row transaction commits: results per commit (vs GRDB `ValueObservation` fetches)", String(format: "%.1f", perCommit), String(format: "%.1f", grdbPerCommit), "—", "1", perCommit == 1)
    row("same, commit to new result, median (vs GRDB `ValueObservation`)", ms(median), ms(peerMedian), String(format: "%.2f", median / peerMedian), "—", nil)
}

// Profiling (`write_path_instructions.py` runs these under callgrind): one measured loop only;
// `reads-N`: SignalStore's read latency alone with N live objects.
if let profile = CommandLine.arguments.firstIndex(of: "--profile").map({ CommandLine.arguments[$0 + 1] }) {
    switch profile {
    case "raw-single": _ = rawC(count: 2_000, oneTransaction: false)
    case "raw-batch": _ = rawC(count: 20_000, oneTransaction: true)
    case "single": _ = modelSets(count: 2_000, subscribers: 1, oneTransaction: false)
    case "batch": _ = modelSets(count: 20_000, subscribers: 1, oneTransaction: true)
    case "fanout": _ = modelSets(count: 200, subscribers: 1_000, oneTransaction: false)
    case "raw-many": _ = rawC(count: 2_000, oneTransaction: false, rows: 1_000)
    case "raw-many-batch": _ = rawC(count: 20_000, oneTransaction: true, rows: 1_000)
    case "many": _ = modelSets(count: 2_000, subscribers: 1, oneTransaction: false, live: 1_000)
    case "many-batch": _ = modelSets(count: 20_000, subscribers: 1, oneTransaction: true, live: 1_000)
    case "growing": _ = modelSetsInAGrowingStore(count: 20_000)
    case "raw-growing": _ = rawCInAStoreInsertedDatabase(count: 20_000)
    case "reads-0", "reads-100", "reads-1000":
        let latencies = signalStoreReadLatency(live: Int(profile.dropFirst("reads-".count))!)
        print("p50 \(ms(percentile(latencies, 0.5))), p99 \(ms(percentile(latencies, 0.99))), max \(ms(latencies.max()!))")
    default: fatalError("unknown profile \(profile)")
    }
    exit(0)
}
let only = CommandLine.arguments.firstIndex(of: "--only").map { CommandLine.arguments[$0 + 1] }
if only == nil || only == "reads" { readBenchmarks() }
if only == nil || only == "writes" { writeBenchmarks() }
if only == nil || only == "queries" { liveQueryBenchmarks() }
print(table.joined(separator: "\n"))
