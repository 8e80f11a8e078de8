import Benchmark
import BenchmarkModels
import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import SignalStore
import Synchronization

// SignalStore's write path against the raw SQLite C API and GRDB 7.10.0: the same schema
// (Migrations/ of the root package), the same settings (WAL, synchronous=NORMAL, foreign
// keys), each library on its own copy of the database, in the same run. Every iteration runs
// 100 `UPDATE orders SET purchase_num = ? WHERE id = ?` that each change the value (so the
// journal trigger fires); `compare.py` reports µs per update.

let migrations = packageMigrations
let updateSQL = "UPDATE orders SET purchase_num = ? WHERE id = ?"
let updatesPerIteration = 100

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 300
    )
    updateBenchmarks()
    crossProcessLatencyBenchmark()
    idlePollingBenchmark()
    modelBenchmarks()
    captureCostBenchmarks()
}

/// One benchmark's database: made in `setup`, removed in `teardown`.
final class BenchDatabase: @unchecked Sendable {
    // @unchecked: setup, iterations and teardown run one after another on one thread.
    private let captured: Bool
    private var directory: URL?
    private(set) var path = ""

    init(captured: Bool) {
        self.captured = captured
    }

    func create() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-bench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        path = makeDatabase(captured: captured, in: directory)
    }

    func remove() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// A database with the example schema and 100 orders in `directory`. With `captured`, the
/// database was made by a Store, so it has the journal triggers.
func makeDatabase(captured: Bool, in directory: URL) -> String {
    let path = directory.appendingPathComponent("bench.sqlite").path
    if captured {
        let store = try! Store(path: path, migrations: migrations)
        try! store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n")
        store.close()
    } else {
        let connection = RawConnection(path: path)
        for file in try! Migration.load(from: migrations) { connection.execute(file.sql) }
        connection.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n")
    }
    return path
}

/// The SQLite C API, used directly, with the store's settings.
final class RawConnection: @unchecked Sendable {
    // @unchecked: used by one benchmark thread at a time.
    let handle: OpaquePointer
    private var update: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) {
        var handle: OpaquePointer?
        precondition(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK)
        self.handle = handle!
        execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        sqlite3_busy_timeout(self.handle, 5_000)
    }

    deinit {
        statements.values.forEach { sqlite3_finalize($0) }
        sqlite3_finalize(begin)
        sqlite3_finalize(commitStatement)
        sqlite3_finalize(update)
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) {
        precondition(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(handle)))
    }

    private var begin: OpaquePointer?
    private var commitStatement: OpaquePointer?

    /// `BEGIN IMMEDIATE` with a reused statement, as the store writes.
    func beginImmediate() {
        if begin == nil { sqlite3_prepare_v2(handle, "BEGIN IMMEDIATE", -1, &begin, nil) }
        precondition(sqlite3_step(begin) == SQLITE_DONE)
        sqlite3_reset(begin)
    }

    /// `COMMIT` with a reused statement.
    func commit() {
        if commitStatement == nil { sqlite3_prepare_v2(handle, "COMMIT", -1, &commitStatement, nil) }
        precondition(sqlite3_step(commitStatement) == SQLITE_DONE)
        sqlite3_reset(commitStatement)
    }

    /// A statement for `sql`, prepared once.
    func cachedStatement(_ sql: String) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        precondition(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(handle)))
        statements[sql] = statement!
        return statement!
    }

    /// One UPDATE with the reused statement (autocommit unless a transaction is open).
    func update(id: Int64, to value: Int64) {
        if update == nil { precondition(sqlite3_prepare_v2(handle, updateSQL, -1, &update, nil) == SQLITE_OK) }
        sqlite3_bind_int64(update, 1, value)
        sqlite3_bind_int64(update, 2, id)
        precondition(sqlite3_step(update) == SQLITE_DONE)
        sqlite3_reset(update)
    }
}

/// A value that changes on every update, so no UPDATE is a no-op.
final class Counter: @unchecked Sendable {
    // @unchecked: used by one benchmark thread at a time.
    var value: Int64 = 0
    func next() -> Int64 {
        value += 1
        return value
    }
}

func updateBenchmarks() {
    rawUpdateBenchmark("f raw C update 100 • no trigger", captured: false)
    rawUpdateBenchmark("f raw C update 100 • journal trigger", captured: true)
    rawUpdateBenchmark("f raw C update 100 • journal trigger + BEGIN IMMEDIATE", captured: true, immediate: true)

    let grdbDatabase = BenchDatabase(captured: true)
    let grdb = Holder<DatabaseQueue>()
    Benchmark(
        "f GRDB write 100 • journal trigger",
        closure: { benchmark in
            let queue = grdb.value!
            let counter = Counter()
            benchmark.startMeasurement()
            for index in 0..<updatesPerIteration {
                let value = counter.next()
                try! queue.write { db in try db.cachedStatement(sql: updateSQL).execute(arguments: [value, index % 100 + 1]) }
            }
            benchmark.stopMeasurement()
        },
        setup: {
            grdbDatabase.create()
            var configuration = Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL") }
            grdb.value = try DatabaseQueue(path: grdbDatabase.path, configuration: configuration)
        },
        teardown: {
            grdb.value = nil
            grdbDatabase.remove()
        }
    )

    let storeDatabase = BenchDatabase(captured: true)
    let store = Holder<Store>()
    Benchmark(
        "f SignalStore update 100 • journal trigger",
        closure: { benchmark in
            let store = store.value!
            let counter = Counter()
            benchmark.startMeasurement()
            for index in 0..<updatesPerIteration {
                try! store.execute(updateSQL, arguments: [.integer(counter.next()), .integer(Int64(index % 100 + 1))])
            }
            benchmark.stopMeasurement()
        },
        setup: {
            storeDatabase.create()
            store.value = try Store(path: storeDatabase.path, migrations: migrations)
        },
        teardown: {
            store.value?.close()
            store.value = nil
            storeDatabase.remove()
        }
    )
}

func rawUpdateBenchmark(_ name: String, captured: Bool, immediate: Bool = false) {
    let database = BenchDatabase(captured: captured)
    let connection = Holder<RawConnection>()
    Benchmark(
        name,
        closure: { benchmark in
            let connection = connection.value!
            let counter = Counter()
            benchmark.startMeasurement()
            for index in 0..<updatesPerIteration {
                if immediate { connection.beginImmediate() }
                connection.update(id: Int64(index % 100 + 1), to: counter.next())
                if immediate { connection.commit() }
            }
            benchmark.stopMeasurement()
        },
        setup: {
            database.create()
            connection.value = RawConnection(path: database.path)
        },
        teardown: {
            connection.value = nil
            database.remove()
        }
    )
}

/// Holds one benchmark's open connection between setup, iterations and teardown.
final class Holder<Value>: @unchecked Sendable {
    // @unchecked: setup, iterations and teardown run one after another on one thread.
    var value: Value?
}

/// Time from another connection's commit to the store's feed delivering the change, at the
/// default poll interval (50 ms). Another connection in this process is, for SQLite, the same
/// as another process: the store only sees the commit through `PRAGMA data_version`.
func crossProcessLatencyBenchmark() {
    let configuration = Benchmark.Configuration(
        metrics: [.custom("latency µs", polarity: .prefersSmaller, useScalingFactor: false)],
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 60
    )
    Benchmark("g cross-process latency • default interval", configuration: configuration) { benchmark in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-bench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = makeDatabase(captured: true, in: directory)
        let store = try! Store(path: path, migrations: migrations)
        let writer = RawConnection(path: path)
        let delivered = DispatchSemaphore(value: 0)
        let deliveredAt = Mutex<ContinuousClock.Instant?>(nil)
        let subscription = store.changes().subscribe(onValue: { _ in
            deliveredAt.withLock { $0 = .now }
            delivered.signal()
        })
        // Start at a random phase of the poll cycle.
        usleep(UInt32.random(in: 0..<50_000))
        writer.update(id: 1, to: Int64.random(in: 1...1_000_000))
        let committedAt = ContinuousClock.now
        precondition(delivered.wait(timeout: .now() + 5) == .success, "the change never arrived")
        let latency = deliveredAt.withLock { $0! } - committedAt
        benchmark.measurement(.custom("latency µs", polarity: .prefersSmaller, useScalingFactor: false), Int(latency.components.attoseconds / 1_000_000_000_000 + latency.components.seconds * 1_000_000))
        subscription.dispose()
        store.close()
    }
}

/// CPU used by an idle store (polling `PRAGMA data_version` every 50 ms) over one second, in
/// thousandths of a core.
func idlePollingBenchmark() {
    let configuration = Benchmark.Configuration(
        metrics: [.custom("idle CPU ‰ of a core", polarity: .prefersSmaller, useScalingFactor: false)],
        warmupIterations: 0,
        maxIterations: 3
    )
    Benchmark("h idle polling 1 s • default interval", configuration: configuration) { benchmark in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-bench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try! Store(path: makeDatabase(captured: true, in: directory), migrations: migrations)
        let before = processCPUTime()
        usleep(1_000_000)
        let used = processCPUTime() - before
        benchmark.measurement(.custom("idle CPU ‰ of a core", polarity: .prefersSmaller, useScalingFactor: false), Int(used * 1_000))
        store.close()
    }
}

/// Seconds of CPU this process has used.
func processCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
