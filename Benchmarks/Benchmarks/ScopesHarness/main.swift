// Sync per scope at many scopes (issue 37): one server, 1,000 scopes, N replicas, each its own
// PostgreSQL role (not a superuser) with 1–3 scopes. Measures, for N = 10, 50, 100:
// - the time from a commit on one replica to the change on the change feed of the other
//   replica that holds the scope (p50 / p99);
// - that replicas outside the scope do no work for it (entries they downloaded: 0);
// - the server's CPU per entry (every postgres process, from /proc) for a 5,000-row
//   transaction, with scopes and without (the same rows, two replicas as the owner).
//
//   eval "$(../.ci/postgres start)"
//   swift run -c release ScopesHarness [--quick]
import Foundation
import Logging
import PostgresNIO
import SignalStoreSync
import Synchronization

let quick = CommandLine.arguments.contains("--quick")
guard let serverURL = ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_URL"] else {
    FileHandle.standardError.write(Data("error: no server; run `eval \"$(../.ci/postgres start)\"` first\n".utf8))
    exit(1)
}
let scopeCount = 1_000
let root = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
let folder = root.appendingPathComponent("signalstore-scopes-harness-\(UUID().uuidString)")
try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let migrations = [Migration(version: 1, name: "tasks", sql: "CREATE TABLE tasks (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL, n INTEGER NOT NULL)")]

func url(schema: String, role: String? = nil) -> PostgresURL {
    var components = URLComponents(string: serverURL)!
    if let role {
        components.user = role
        components.password = "pw-\(role)"
    }
    let text = components.string!
    return try! PostgresURL(text + (text.contains("?") ? "&" : "?") + "schema=\(schema)")
}

func store(_ name: String) -> Store {
    try! Store(path: folder.appendingPathComponent("\(name).sqlite").path, migrations: migrations, pollInterval: .milliseconds(5))
}

/// Runs `sql` as the server's superuser.
func admin(_ sql: String) async throws {
    let base = URLComponents(string: serverURL)!
    var logger = Logger(label: "ScopesHarness")
    logger.logLevel = .critical
    let connection = try await PostgresConnection.connect(configuration: .init(
        host: base.host!, port: base.port ?? 5432, username: base.user!, password: base.password, database: String(base.path.dropFirst()), tls: .disable
    ), id: 1, logger: logger)
    for statement in sql.split(separator: ";").map(String.init) where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
    }
    try await connection.close()
}

/// CPU time of every postgres process, in seconds.
func serverCPU() -> Double {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
        guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
              stat[stat.index(after: open)..<close] == "postgres" else { continue }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        total += (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks   // utime, stime
    }
    return total
}

func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Waits for the first change of `store`'s feed that `matches`, and returns when it came.
final class Arrival: Sendable {
    private final class Seen: Sendable {
        let instant = Mutex<ContinuousClock.Instant?>(nil)
    }
    private let seen = Seen()
    private let subscription: any Disposable

    init(_ store: Store, _ matches: @escaping @Sendable (Change) -> Bool) {
        subscription = store.changes().subscribe(onValue: { [seen] change in
            if matches(change) { seen.instant.withLock { $0 = $0 ?? ContinuousClock.now } }
        })
    }

    func wait(timeout: Duration = .seconds(20)) async -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let at = seen.instant.withLock({ $0 }) { return at }
            try? await Task.sleep(for: .microseconds(200))
        }
        return nil
    }

    deinit { subscription.dispose() }
}

struct Row {
    var replicas: Int
    var p50: Double
    var p99: Double
    var outsideDownloads: Int
    var setup: Double
}

/// N replicas: replica i holds scope i/2 + 1 (shared with its pair) and 0–2 scopes of its own.
func measure(replicas count: Int, samples: Int) async throws -> Row {
    let schema = "sh_\(UInt32.random(in: 0...UInt32.max))"
    let run = String(schema.dropFirst(3))
    let adminStore = store("admin-\(run)")
    try adminStore.execute("INSERT INTO tasks (id, team_id, n) WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < \(scopeCount)) SELECT value, value, 0 FROM s")
    let adminURL = url(schema: schema)
    try await SyncScopes.setUp(adminURL, scopeColumn: "team_id", store: adminStore)
    try await SyncClient(store: adminStore, url: adminURL).syncOnce()
    var generator = SystemRandomNumberGenerator()
    var held: [[Int]] = []
    let roles = (0..<count).map { "sh_\(run)_\($0)" }
    try await admin(roles.map { "CREATE ROLE \($0) LOGIN PASSWORD 'pw-\($0)'" }.joined(separator: ";"))
    for (index, role) in roles.enumerated() {
        let own = (0..<Int.random(in: 0...2, using: &generator)).map { _ in Int.random(in: (count / 2 + 2)...scopeCount, using: &generator) }
        let scopes = Array(Set([index / 2 + 1] + own)).sorted()
        held.append(scopes)
        try await SyncScopes.grant(adminURL, role: role, scopes: scopes.map(String.init))
    }
    let stores = roles.map { store($0) }
    let clients = zip(stores, roles).map { SyncClient(store: $0, url: url(schema: schema, role: $1)) }
    let started = ContinuousClock.now
    let tasks = clients.map { client in Task { try? await client.run() } }
    defer { for task in tasks { task.cancel() } }
    // Each scope has one row: a replica is ready once it downloaded one per scope it holds.
    for (client, scopes) in zip(clients, held) {
        while client.progress.value.downloaded < scopes.count { try await Task.sleep(for: .milliseconds(20)) }
    }
    let setup = Double((ContinuousClock.now - started).components.attoseconds) / 1e18 + Double((ContinuousClock.now - started).components.seconds)
    for client in clients { while client.status.value != .idle { try await Task.sleep(for: .milliseconds(5)) } }

    var latencies: [Double] = []
    var outside = 0
    for sample in 1...samples {
        let writer = 2 * Int.random(in: 0..<(count / 2), using: &generator)
        let scope = writer / 2 + 1
        let partner = writer + 1
        let before = clients.map(\.progress.value.downloaded)
        let arrival = Arrival(stores[partner]) { change in change.table == "tasks" && change.newValue == .integer(Int64(sample)) }
        _ = try stores[writer].execute("UPDATE tasks SET n = ? WHERE id = ?", arguments: [.integer(Int64(sample)), .integer(Int64(scope))])
        let committed = ContinuousClock.now
        guard let seen = await arrival.wait() else { fatalError("scope \(scope): the change never reached replica \(partner)") }
        let elapsed = seen - committed
        latencies.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        try await Task.sleep(for: .milliseconds(20))
        for (index, client) in clients.enumerated() where !held[index].contains(scope) && index != writer {
            outside += client.progress.value.downloaded - before[index]
        }
    }
    return Row(replicas: count, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), outsideDownloads: outside, setup: setup)
}

/// Server CPU per entry for a 5,000-row transaction on one replica reaching another, with
/// scopes (roles) and without (the owner, no setup).
func serverCost(scoped: Bool, rows: Int = 5_000) async throws -> Double {
    let schema = "sc_\(UInt32.random(in: 0...UInt32.max))"
    let run = String(schema.dropFirst(3))
    let (a, b) = (store("cost-a-\(run)"), store("cost-b-\(run)"))
    var urls = (url(schema: schema), url(schema: schema))
    if scoped {
        try await SyncScopes.setUp(urls.0, scopeColumn: "team_id", store: a)
        let roles = ["sc_\(run)_a", "sc_\(run)_b"]
        try await admin(roles.map { "CREATE ROLE \($0) LOGIN PASSWORD 'pw-\($0)'" }.joined(separator: ";"))
        for role in roles { try await SyncScopes.grant(urls.0, role: role, scopes: ["7"]) }
        urls = (url(schema: schema, role: roles[0]), url(schema: schema, role: roles[1]))
    }
    let clients = [SyncClient(store: a, url: urls.0), SyncClient(store: b, url: urls.1)]
    let tasks = clients.map { client in Task { try? await client.run() } }
    defer { for task in tasks { task.cancel() } }
    for client in clients { while client.status.value != .idle { try await Task.sleep(for: .milliseconds(5)) } }
    let arrival = Arrival(b) { change in change.table == "tasks" && change.rowID == Int64(rows) }
    let before = serverCPU()
    _ = try a.execute("INSERT INTO tasks (id, team_id, n) WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < \(rows)) SELECT value, 7, 0 FROM s")
    guard await arrival.wait(timeout: .seconds(120)) != nil else { fatalError("the transaction never arrived") }
    return (serverCPU() - before) / Double(rows) * 1e6
}

let counts = quick ? [10] : [10, 50, 100]
let samples = quick ? 20 : 100
print("sync per scope: \(scopeCount) scopes, replicas each a role with 1–3 scopes, \(samples) commits per row")
print("| replicas | commit → change feed of the replica holding the scope, p50 | p99 | entries downloaded by replicas outside the scope | all replicas connected and holding their rows |")
print("|---|---|---|---|---|")
for count in counts {
    let row = try await measure(replicas: count, samples: samples)
    print(String(format: "| %d | %.1f ms | %.1f ms | %d | %.1f s |", row.replicas, row.p50, row.p99, row.outsideDownloads, row.setup))
}
let plain = try await serverCost(scoped: false)
let scoped = try await serverCost(scoped: true)
print(String(format: "server CPU per entry, a 5,000-row transaction reaching one other replica: %.1f µs with scopes, %.1f µs without (%.2f×)", scoped, plain, scoped / plain))
