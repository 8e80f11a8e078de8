// Sync through PostgreSQL, measured against the issue's goals and against the floor any
// PostgreSQL-based sync stands on: a bare postgres-nio INSERT + NOTIFY seen by a LISTEN on a
// second connection. One run, one table.
//
//   eval "$(../.ci/postgres start)"
//   swift run -c release SyncHarness [--quick]
//   swift run -c release SyncHarness --apply [ROWS]   # only the cost of applying, for a profiler
//
// Databases live on /dev/shm when it exists, so disk checkpoints do not decide the numbers.
import BenchmarkModels
import Foundation
import Logging
import PostgresNIO
import SignalStoreSync
import Synchronization

typealias Order = BenchOrder

let quick = CommandLine.arguments.contains("--quick")
guard let serverURL = ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_URL"] else {
    FileHandle.standardError.write(Data("error: no server; run `eval \"$(../.ci/postgres start)\"` first\n".utf8))
    exit(1)
}

let root = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
let folder = root.appendingPathComponent("signalstore-sync-harness-\(UUID().uuidString)")
try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A URL with a schema of its own: every measurement starts from an empty log.
func freshURL() -> PostgresURL {
    try! PostgresURL(serverURL + (serverURL.contains("?") ? "&" : "?") + "schema=h_\(UInt32.random(in: 0...UInt32.max))")
}

func replica(_ name: String) -> Store {
    try! Store(path: folder.appendingPathComponent("\(name).sqlite").path, migrations: packageMigrations, pollInterval: .milliseconds(5))
}

func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// Runs every client until `body` returns.
func whileSyncing<Result>(_ clients: [SyncClient], _ body: () async throws -> Result) async rethrows -> Result {
    let tasks = clients.map { client in Task { try? await client.run() } }
    defer { for task in tasks { task.cancel() } }
    for client in clients {
        while client.status.value != .idle { try? await Task.sleep(for: .milliseconds(5)) }
    }
    return try await body()
}

/// Waits until `condition` holds, looking every `interval` (reading three databases every
/// 100 µs would take a core from the replicas being measured).
func until(every interval: Duration = .microseconds(100), _ condition: () throws -> Bool) async rethrows {
    while try !condition() { try? await Task.sleep(for: interval) }
}

// MARK: - (1) commit on A → property signal on B

func latency(samples: Int) async -> [Double] {
    let url = freshURL()
    let a = replica("latency-a"), b = replica("latency-b")
    try! a.insert(Order(id: 1, purchaseNum: 0, status: "open"))
    let syncA = SyncClient(store: a, url: url), syncB = SyncClient(store: b, url: url)
    return await whileSyncing([syncA, syncB]) {
        await until { (try? b.find(Order.self, id: 1)) != nil }
        let order = try! b.find(Order.self, id: 1)!
        let seen = Mutex<Int>(0)
        let subscription = order.signal(for: \.purchaseNum).subscribe(onValue: { value in seen.withLock { $0 = value } })
        defer { subscription.dispose() }
        var result: [Double] = []
        let clock = ContinuousClock()
        for value in 1...samples {
            let start = clock.now
            try! a.execute("UPDATE orders SET purchase_num = ? WHERE id = 1", arguments: [.integer(Int64(value))])
            await until { seen.withLock { $0 } == value }
            result.append(milliseconds(clock.now - start))
            try? await Task.sleep(for: .milliseconds(2))
        }
        return result
    }
}

/// The floor: INSERT + NOTIFY on one connection, seen by LISTEN on another.
func bareNotifyLatency(samples: Int) async throws -> [Double] {
    let url = freshURL()
    var logger = Logger(label: "harness")
    logger.logLevel = .critical
    var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.username, password: URLComponents(string: serverURL)!.password, database: url.database, tls: .disable)
    configuration.options.requireBackendKeyData = true
    let writer = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    let listener = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
    try await writer.query("CREATE TEMP TABLE bench (v bigint)", logger: logger)
    let received = AsyncStream<Void>.makeStream()
    let listening = Task {
        try await listener.listen(on: "bench") { notifications in
            for try await _ in notifications { received.continuation.yield() }
        }
    }
    try await Task.sleep(for: .milliseconds(200))
    var iterator = received.stream.makeAsyncIterator()
    var result: [Double] = []
    let clock = ContinuousClock()
    for value in 1...samples {
        let start = clock.now
        try await writer.query("INSERT INTO bench VALUES (\(Int64(value))); ", logger: logger)
        try await writer.query("SELECT pg_notify('bench', '')", logger: logger)
        _ = await iterator.next()
        result.append(milliseconds(clock.now - start))
        try? await Task.sleep(for: .milliseconds(2))
    }
    listening.cancel()
    try await writer.close()
    try await listener.close()
    return result
}

// MARK: - (2) sustained column changes with 3 replicas

/// Each replica writes `perReplica` column changes (transactions of 100 updates) while all
/// three sync; returns the seconds until every replica holds every change.
func throughput(perReplica: Int) async -> Double {
    let url = freshURL()
    let stores = (0..<3).map { replica("throughput-\($0)") }
    for (index, store) in stores.enumerated() {
        try! store.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
            INSERT INTO orders (id, purchase_num, status) SELECT \(index * 1000) + i, 0, 'open' FROM n
            """)
    }
    let clients = stores.map { SyncClient(store: $0, url: url) }
    return await whileSyncing(clients) {
        await until(every: .milliseconds(5)) { stores.allSatisfy { store in (try? store.read { try $0.count(Order.self) }) == 300 } }
        let clock = ContinuousClock()
        let start = clock.now
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for round in 1...(perReplica / 100) {
                        try! store.execute("UPDATE orders SET purchase_num = ? WHERE id > ? AND id <= ?",
                                           arguments: [.integer(Int64(round)), .integer(Int64(index * 1000)), .integer(Int64(index * 1000 + 100))])
                    }
                }
            }
        }
        let final = Int64(perReplica / 100)
        try! await until(every: .milliseconds(5)) {
            try stores.allSatisfy { store in
                try store.read { try $0.count(Order.self, where: "purchase_num = ?", arguments: [.integer(final)]) } == 300
            }
        }
        return Double(milliseconds(clock.now - start)) / 1000
    }
}

// MARK: - (3) bootstrap of a fresh replica

func bootstrap(rows: Int) async -> (upload: Double, bootstrap: Double) {
    let url = freshURL()
    let source = replica("bootstrap-source")
    try! source.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO orders (id, purchase_num, status, note) SELECT i, i, 'open', 'note ' || i FROM n
        """)
    let clock = ContinuousClock()
    var start = clock.now
    try! await SyncClient(store: source, url: url).syncOnce()
    let upload = milliseconds(clock.now - start) / 1000
    let fresh = replica("bootstrap-fresh")
    start = clock.now
    let progress = try! await SyncClient(store: fresh, url: url).syncOnce()
    precondition(progress.downloaded == rows)
    return (upload, milliseconds(clock.now - start) / 1000)
}

func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.0f", value) }

// MARK: - (4) applying: CPU per entry of one big transaction

/// CPU time of this process so far (user + system), in microseconds.
func cpuMicroseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// A `rows`-row transaction on A, uploaded; then B downloads and applies it. Returns B's CPU
/// per applied entry (µs: download, decoding and applying), its wall time (s), and A's CPU per
/// entry for stamping, uploading and confirming them (µs: the sender's side).
func applyCost(rows: Int) async -> (cpuPerEntry: Double, seconds: Double, uploadPerEntry: Double) {
    let url = freshURL()
    let source = replica("apply-source-\(rows)"), target = replica("apply-target-\(rows)")
    try! source.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO orders (id, purchase_num, status, note) SELECT i, i, 'open', 'note ' || i FROM n
        """)
    let uploadStart = cpuMicroseconds()
    try! await SyncClient(store: source, url: url).syncOnce()
    let upload = (cpuMicroseconds() - uploadStart) / Double(rows)
    let client = SyncClient(store: target, url: url)
    let clock = ContinuousClock()
    let (start, cpu) = (clock.now, cpuMicroseconds())
    let progress = try! await client.syncOnce()
    precondition(progress.applied == rows)
    return ((cpuMicroseconds() - cpu) / Double(rows), milliseconds(clock.now - start) / 1000, upload)
}

// MARK: - (5) applying updates that overlap: the conflict inbox's cost

/// `rows` rows on A and B; apart, A changes every row's status, then B changes `overlapping`
/// percent of the rows' status (concurrent edits the server lists) and the others' note. A then
/// downloads and applies B's updates. Returns A's CPU per applied entry (µs), B's wall time to
/// upload (s, the server marking the overlaps included), and how many edits A lists.
func overlapCost(rows: Int, overlapping percent: Int) async -> (cpuPerEntry: Double, uploadSeconds: Double, listed: Int) {
    let url = freshURL()
    let a = replica("overlap-a-\(percent)"), b = replica("overlap-b-\(percent)")
    try! a.execute("""
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO orders (id, purchase_num, status, note) SELECT i, i, 'open', 'note ' || i FROM n
        """)
    let syncA = SyncClient(store: a, url: url), syncB = SyncClient(store: b, url: url)
    _ = try! await syncA.syncOnce()
    _ = try! await syncB.syncOnce()
    try! a.execute("UPDATE orders SET status = 'a ' || id")
    _ = try! await syncA.syncOnce()
    let shared = rows * percent / 100
    try! b.execute("UPDATE orders SET status = 'b ' || id WHERE id <= \(shared)")
    try! b.execute("UPDATE orders SET note = 'b ' || id WHERE id > \(shared)")
    let clock = ContinuousClock()
    let uploadStart = clock.now
    _ = try! await syncB.syncOnce()
    let upload = milliseconds(clock.now - uploadStart) / 1000
    let cpu = cpuMicroseconds()
    let progress = try! await syncA.syncOnce()
    precondition(progress.applied == rows)
    let listed = try! SyncClient.conflicts(in: a).filter { $0.kind == .concurrentEdit }.count
    precondition(listed == shared, "listed \(listed) of \(shared)")
    return ((cpuMicroseconds() - cpu) / Double(rows), upload, listed)
}

// `--overlaps N` (default 50,000): B's N updates applied on A, none and 20 % of them concurrent
// with A's, in one run.
if let flag = CommandLine.arguments.firstIndex(of: "--overlaps") {
    let rows = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) } ?? 50_000
    print("| \(rows) updates from B applied on A | CPU per entry on A (µs) | B's upload, the server marking (s) | edits listed |")
    print("|---|---|---|---|")
    for percent in [0, 20] {
        let cost = await overlapCost(rows: rows, overlapping: percent)
        print("| \(percent) % concurrent with A's | \(format(cost.cpuPerEntry)) | \(format(cost.uploadSeconds)) | \(cost.listed) |")
    }
    exit(0)
}

// `--resolve N` (default 1,000): N concurrent edits listed on A, resolved one call each, the
// three resolutions in turn; the wall time of the N calls, then of the sync that uploads them.
if let flag = CommandLine.arguments.firstIndex(of: "--resolve") {
    let count = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) } ?? 1_000
    let url = freshURL()
    let a = replica("resolve-a"), b = replica("resolve-b")
    try! a.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count)) INSERT INTO orders (id, purchase_num, status, note) SELECT i, i, 'open', 'note ' || i FROM n")
    let syncA = SyncClient(store: a, url: url), syncB = SyncClient(store: b, url: url)
    _ = try! await syncA.syncOnce()
    _ = try! await syncB.syncOnce()
    try! a.execute("UPDATE orders SET status = 'a ' || id")
    _ = try! await syncA.syncOnce()
    try! b.execute("UPDATE orders SET status = 'b ' || id")
    _ = try! await syncB.syncOnce()
    _ = try! await syncA.syncOnce()
    let edits = try! SyncClient.conflicts(in: a).filter { $0.kind == .concurrentEdit }
    precondition(edits.count == count, "listed \(edits.count) of \(count)")
    let resolutions: [SyncConflict.Resolution] = [.keepWinner, .restoreLoser, .value(.text("settled"))]
    let clock = ContinuousClock()
    let start = clock.now
    for (index, edit) in edits.enumerated() { try! syncA.resolve(edit, with: resolutions[index % 3]) }
    let resolving = milliseconds(clock.now - start)
    let uploadStart = clock.now
    _ = try! await syncA.syncOnce()
    let uploading = milliseconds(clock.now - uploadStart)
    _ = try! await syncB.syncOnce()
    precondition(try! SyncClient.conflicts(in: b).filter { $0.kind == .concurrentEdit }.isEmpty)
    print("resolve \(count) concurrent edits one call each (the three kinds in turn): \(format(resolving)) ms; the sync that uploads them: \(format(uploading)) ms; B's inbox empty after its sync")
    exit(0)
}

// `--apply` alone measures 1,000 and 50,000 entries; `--apply N`, N only (for a profiler).
if let flag = CommandLine.arguments.firstIndex(of: "--apply") {
    let sizes = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) }.map { [$0] } ?? [1_000, 50_000]
    for rows in sizes {
        let cost = await applyCost(rows: rows)
        print("apply \(rows) entries: \(format(cost.cpuPerEntry)) µs CPU per entry, \(format(cost.seconds)) s; A stamped and uploaded them at \(format(cost.uploadPerEntry)) µs CPU per entry")
    }
    exit(0)
}

// MARK: - The table

let samples = quick ? 50 : 500
let bare = try await bareNotifyLatency(samples: samples)
let synced = await latency(samples: samples)
let perReplica = quick ? 5_000 : 20_000
let seconds = await throughput(perReplica: perReplica)
let rows = quick ? 10_000 : 100_000
let boot = await bootstrap(rows: rows)
let bigTransaction = quick ? 10_000 : 50_000
let applied = await applyCost(rows: bigTransaction)

print("""
| measure | SignalStoreSync | floor: bare postgres-nio INSERT + NOTIFY → LISTEN | ratio | goal | met |
|---|---|---|---|---|---|
| commit on A → property signal on B, p50 (ms, \(samples) samples) | \(format(percentile(synced, 0.5))) | \(format(percentile(bare, 0.5))) | \(format(percentile(synced, 0.5) / percentile(bare, 0.5)))× | — | — |
| commit on A → property signal on B, p99 (ms) | \(format(percentile(synced, 0.99))) | \(format(percentile(bare, 0.99))) | \(format(percentile(synced, 0.99) / percentile(bare, 0.99)))× | ≤ 100 ms | \(percentile(synced, 0.99) <= 100 ? "yes" : "no") |
| 3 replicas, \(perReplica) column changes each, until all hold all (changes/s per replica, own uploaded) | \(format(Double(perReplica) / seconds)) | — | — | ≥ 5,000 | \(Double(perReplica) / seconds >= 5000 ? "yes" : "no") |
| same run: changes/s per replica, others' applied | \(format(Double(2 * perReplica) / seconds)) | — | — | — | — |
| bootstrap of a fresh replica from \(rows) rows (s) | \(format(boot.bootstrap)) | — | — | ≤ 10 s | \(boot.bootstrap <= 10 ? "yes" : "no") |
| first upload of those \(rows) rows (s) | \(format(boot.upload)) | — | — | — | — |
| B applies a \(bigTransaction)-row transaction: CPU per entry (µs: download, decode, apply) | \(format(applied.cpuPerEntry)) | — | — | ≤ 15 | \(applied.cpuPerEntry <= 15 ? "yes" : "no") |
| same: B's wall time (s) | \(format(applied.seconds)) | — | — | ≤ 2 s | \(applied.seconds <= 2 ? "yes" : "no") |
| same: A's CPU per entry to stamp, upload and confirm them (µs) | \(format(applied.uploadPerEntry)) | — | — | — | — |
""")
