import Benchmark
import Dispatch
import Foundation
import BenchmarkModels
import GRDB
import MallocStats
import SignalStore
import Synchronization

// Models against GRDB's ValueObservation and the raw C API, same schema and settings, same run.

/// Counts notifications and lets the benchmark wait for a number of them.
final class Arrivals: @unchecked Sendable {
    // @unchecked: `count` is guarded by `condition`.
    private let condition = NSCondition()
    private var count = 0

    func arrive() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `target` notifications arrived in total.
    func wait(for target: Int) {
        condition.lock()
        while count < target { condition.wait() }
        condition.unlock()
    }
}

func modelBenchmarks() {
    singleWriteBenchmarks()
    fanOutWriteBenchmarks()
    transactionBatchBenchmarks()
    modelMemoryBenchmark()
}

/// i: one property set, autocommit, one subscriber notified; GRDB: write + one observation,
/// until notified. 100 writes per iteration.
func singleWriteBenchmarks() {
    let storeDatabase = BenchDatabase(captured: true)
    let order = Holder<BenchOrder>()
    let store = Holder<Store>()
    let notified = Holder<Arrivals>()
    Benchmark(
        "i model set + 1 subscriber 100 • SignalStore",
        closure: { benchmark in
            let order = order.value!
            benchmark.startMeasurement()
            for _ in 0..<updatesPerIteration { order.purchaseNum += 1 }
            benchmark.stopMeasurement()
        },
        setup: {
            storeDatabase.create()
            store.value = try Store(path: storeDatabase.path, migrations: migrations)
            order.value = try store.value!.find(BenchOrder.self, id: Int64(1))
            let arrivals = Arrivals()
            notified.value = arrivals
            order.value!.signal(for: \.purchaseNum).subscribe(onValue: { _ in arrivals.arrive() })
        },
        teardown: {
            order.value = nil
            store.value?.close()
            storeDatabase.remove()
        }
    )
    grdbObservationBenchmark("i GRDB write + 1 observation 100 • until notified", observers: 1, writes: updatesPerIteration)
}

/// j: one write with 1,000 subscribers on the property (all notified when it returns); GRDB
/// with 1,000 observations, until all are notified.
func fanOutWriteBenchmarks() {
    let storeDatabase = BenchDatabase(captured: true)
    let order = Holder<BenchOrder>()
    let store = Holder<Store>()
    let bag = Holder<DisposeBag>()
    Benchmark(
        "j model set + 1000 subscribers 1 • SignalStore",
        closure: { benchmark in
            let order = order.value!
            benchmark.startMeasurement()
            order.purchaseNum += 1
            benchmark.stopMeasurement()
        },
        setup: {
            storeDatabase.create()
            store.value = try Store(path: storeDatabase.path, migrations: migrations)
            order.value = try store.value!.find(BenchOrder.self, id: Int64(1))
            let subscriptions = DisposeBag()
            let sink = Counter()
            // Delivery is synchronous: every subscriber has its value when the set returns.
            for _ in 0..<1_000 { order.value!.signal(for: \.purchaseNum).subscribe(onValue: { _ in _ = sink.next() }).disposed(by: subscriptions) }
            bag.value = subscriptions
        },
        teardown: {
            bag.value = nil
            order.value = nil
            store.value?.close()
            storeDatabase.remove()
        }
    )
    grdbObservationBenchmark("j GRDB write + 1000 observations 1 • until notified", observers: 1_000, writes: 1, maxIterations: 10)
}

func grdbObservationBenchmark(_ name: String, observers: Int, writes: Int, maxIterations: Int = 300) {
    let database = BenchDatabase(captured: true)
    let queue = Holder<DatabaseQueue>()
    let cancellables = Holder<[AnyDatabaseCancellable]>()
    let arrivals = Holder<Arrivals>()
    let expected = Holder<Int>()
    Benchmark(
        name,
        configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: maxIterations),
        closure: { benchmark in
            let queue = queue.value!
            let arrivals = arrivals.value!
            benchmark.startMeasurement()
            for _ in 0..<writes {
                try! queue.write { db in try db.execute(sql: "UPDATE orders SET purchase_num = purchase_num + 1 WHERE id = 1") }
                expected.value! += observers
                arrivals.wait(for: expected.value!)
            }
            benchmark.stopMeasurement()
        },
        setup: {
            database.create()
            var configuration = Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL") }
            queue.value = try DatabaseQueue(path: database.path, configuration: configuration)
            let counter = Arrivals()
            arrivals.value = counter
            let observationQueue = DispatchQueue(label: "grdb-observations")
            cancellables.value = (0..<observers).map { _ in
                ValueObservation
                    .tracking { db in try Int.fetchOne(db, sql: "SELECT purchase_num FROM orders WHERE id = 1") }
                    .start(in: queue.value!, scheduling: .async(onQueue: observationQueue), onError: { _ in }, onChange: { _ in counter.arrive() })
            }
            expected.value = observers   // the initial value of each observation
            counter.wait(for: observers)
        },
        teardown: {
            cancellables.value = nil
            queue.value = nil
            database.remove()
        }
    )
}

/// k: 100,000 property sets inside one transaction; raw C: 100,000 UPDATEs in one transaction
/// with the trigger.
func transactionBatchBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 1, maxIterations: 10)
    let storeDatabase = BenchDatabase(captured: true)
    let store = Holder<Store>()
    let order = Holder<BenchOrder>()
    Benchmark(
        "k 100000 sets in one transaction • SignalStore",
        configuration: configuration,
        closure: { benchmark in
            let order = order.value!
            benchmark.startMeasurement()
            try! store.value!.transaction {
                for _ in 0..<100_000 { order.purchaseNum += 1 }
            }
            benchmark.stopMeasurement()
        },
        setup: {
            storeDatabase.create()
            store.value = try Store(path: storeDatabase.path, migrations: migrations)
            order.value = try store.value!.find(BenchOrder.self, id: Int64(1))
        },
        teardown: {
            order.value = nil
            store.value?.close()
            storeDatabase.remove()
        }
    )
    let rawDatabase = BenchDatabase(captured: true)
    let connection = Holder<RawConnection>()
    Benchmark(
        "k 100000 sets in one transaction • raw C + trigger",
        configuration: configuration,
        closure: { benchmark in
            let connection = connection.value!
            let counter = Counter()
            benchmark.startMeasurement()
            connection.beginImmediate()
            for _ in 0..<100_000 { connection.update(id: 1, to: counter.next()) }
            connection.commit()
            benchmark.stopMeasurement()
        },
        setup: {
            rawDatabase.create()
            connection.value = RawConnection(path: rawDatabase.path)
        },
        teardown: {
            connection.value = nil
            rawDatabase.remove()
        }
    )
}

/// l: heap bytes per live model object with one property subscription (10,000 live).
func modelMemoryBenchmark() {
    let configuration = Benchmark.Configuration(
        metrics: [.custom("heap bytes per model", polarity: .prefersSmaller, useScalingFactor: false)],
        warmupIterations: 0,
        maxIterations: 3
    )
    Benchmark("l memory per live model + 1 subscription • SignalStore", configuration: configuration) { benchmark in
        let database = BenchDatabase(captured: true)
        database.create()
        defer { database.remove() }
        let store = try! Store(path: database.path, migrations: migrations)
        try! store.execute("WITH RECURSIVE n(i) AS (SELECT 101 UNION ALL SELECT i + 1 FROM n WHERE i < 10100) INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n")
        let before = malloc_stats_bytes_in_use()
        let orders = try! store.all(BenchOrder.self, where: "id > 100")
        let subscriptions = orders.map { $0.signal(for: \.purchaseNum).subscribe(onValue: { _ in }) }
        let after = malloc_stats_bytes_in_use()
        benchmark.measurement(.custom("heap bytes per model", polarity: .prefersSmaller, useScalingFactor: false), (after - before) / orders.count)
        subscriptions.forEach { $0.dispose() }
        store.close()
    }
}
