#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// Random writes on replicas of overlapping scopes, as plain roles, against the real server:
/// inserts inside and outside the role's scopes, keys that live in another scope, edits, moves
/// between scopes, deletes, shared rows, a revoke and a grant in the middle, and syncs in a
/// random order. At the end every replica holds exactly the administrator's rows of its scopes
/// and the shared rows, the administrator equals a fresh replica of the log, and every refused
/// change is listed where it was made.
///
/// With `SIGNALSTORE_CHAOS=kill` the replicas' syncs run as the built `signalstore sync --once`,
/// and about a third of them are killed with `kill -9` at a random moment (mid-upload and
/// mid-apply included); the final syncs run to the end.
@Suite("Sync: scopes converge under random writes, moves and grant changes", .enabled(if: TestServer.isEnabled, "needs PostgreSQL"), .ownThread, .serialized)
struct ScopeConvergenceTests {
    static let migrations = [Migration(version: 1, name: "teams", sql: """
        CREATE TABLE tasks (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL, title TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE labels (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        """)]

    /// Four seeds in a plain run; forty with `SIGNALSTORE_HEAVY=1`.
    static let seeds: [UInt64] = Array(1...(ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1" ? 40 : 4))
    /// Whether syncs run as killed processes (`SIGNALSTORE_CHAOS=kill`).
    static let kills = (ProcessInfo.processInfo.environment["SIGNALSTORE_CHAOS"] ?? "").split(separator: ",").contains("kill")

    @Test(arguments: seeds)
    func replicasHoldTheirScopesOfTheLog(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let folder = TemporaryDirectory()
        let adminURL = try TestServer.freshURL()
        let admin = try Replica(folder, "admin", migrations: Self.migrations)
        try sqlite3(admin.path, "INSERT INTO tasks (id, team_id, title) VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three'); INSERT INTO labels VALUES (1, 'shared')")
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(8)
        let roles = (0..<3).map { "c\($0)_\(suffix)" }
        for role in roles { try ScopeTests.psqlAsAdmin(adminURL, "CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'") }
        let url = try PostgresURL(adminURL)
        try await SyncScopes.setUp(url, scopeColumn: "team_id", store: admin.store)
        var held: [Set<Int>] = [[1, 2], [2, 3], [1, 3]]
        for (role, scopes) in zip(roles, held) { try await SyncScopes.grant(url, role: role, scopes: scopes.sorted().map(String.init)) }
        let replicas = try (0..<3).map { try Replica(folder, "r\($0)", migrations: Self.migrations) }
        let clients = try zip(replicas, roles).map { try $0.client(ScopeTests.url(adminURL, as: $1)) } + [try admin.client(adminURL)]
        let paths = replicas.map(\.path) + [admin.path]
        var actions: [String] = []

        for step in 0..<80 {
            if step == 40 {   // replica 0 loses scope 2 and gains scope 3
                try await SyncScopes.revoke(url, role: roles[0], scopes: ["2"])
                try await SyncScopes.grant(url, role: roles[0], scopes: ["3"])
                held[0] = [1, 3]
                actions.append("revoke 2, grant 3 to r0")
            }
            let actor = Int.random(in: 0..<4, using: &random)
            let id = Int.random(in: 1...30, using: &random)
            let team = Int.random(in: 1...3, using: &random)
            let statement: String
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: statement = "INSERT OR IGNORE INTO tasks (id, team_id, title) VALUES (\(id), \(team), 'new \(step)')"
            case 2, 3: statement = "UPDATE tasks SET title = 'edit \(step)', n = n + 1 WHERE id = (SELECT id FROM tasks ORDER BY abs(id - \(id)) LIMIT 1)"
            case 4: statement = "UPDATE tasks SET team_id = \(team) WHERE id = (SELECT id FROM tasks ORDER BY abs(id - \(id)) LIMIT 1)"
            case 5: statement = "DELETE FROM tasks WHERE id = (SELECT id FROM tasks ORDER BY abs(id - \(id)) LIMIT 1)"
            case 6: statement = "INSERT INTO labels (id, name) VALUES (\(id % 5), 'label \(step)') ON CONFLICT (id) DO UPDATE SET name = excluded.name"
            default:
                if Self.kills && actor < 3 && Bool.random(using: &random) {
                    let delay = Int.random(in: 0...400, using: &random)
                    let killed = try Self.killedSync(paths[actor], ScopeTests.url(adminURL, as: roles[actor]), after: delay)
                    actions.append("sync \(actor) as a process, \(killed ? "killed with kill -9 after \(delay) ms" : "done before the kill")")
                } else {
                    try await clients[actor].syncOnce()
                    actions.append("sync \(actor)")
                }
                continue
            }
            try sqlite3(paths[actor], statement)
            actions.append("\(actor): \(statement)")
        }
        for _ in 0..<3 {
            for client in clients { try await client.syncOnce() }
        }

        let conflicts = clients.enumerated().map { "conflicts of \($0.offset): \($0.element.conflicts.value.map(\.description))" }
        let context = "seed \(seed), schema \(url.schema):\n" + actions.joined(separator: "\n") + "\n" + conflicts.joined(separator: "\n")
        let everything = try Self.tasks(admin.path)
        for (index, replica) in replicas.enumerated() {
            let expected = everything.filter { held[index].contains($0.team) }.map(\.line)
            let holds = try Self.tasks(replica.path).map(\.line)
            #expect(holds == expected, "replica \(index) (scopes \(held[index].sorted())) holds \(Set(holds).subtracting(expected).sorted()) beyond the administrator's and lacks \(Set(expected).subtracting(holds).sorted()); \(context)")
            #expect(try sqlite3(replica.path, "SELECT * FROM labels ORDER BY id") == sqlite3(admin.path, "SELECT * FROM labels ORDER BY id"), "shared rows differ; \(context)")
            for conflict in clients[index].conflicts.value where conflict.isLocal && conflict.kind != .concurrentEdit {
                #expect(conflict.rule.contains("refused by the server") || conflict.rule.contains("constraint"), "\(conflict)")
            }
        }
        let fresh = try Replica(folder, "fresh", migrations: Self.migrations)
        try await fresh.client(adminURL).syncOnce()
        #expect(try Self.tasks(fresh.path).map(\.line) == everything.map(\.line), "the administrator differs from a fresh replica of the log; \(context)")
        for client in clients {
            if case .failed(let error) = client.status.value { Issue.record("sync failed: \(error); \(context)") }
        }
    }

    /// Runs `signalstore sync --once` on `path` and kills it with `kill -9` after `delay`
    /// milliseconds; returns whether it was still running then.
    static func killedSync(_ path: String, _ url: String, after delay: Int) throws -> Bool {
        let sync = try ChildProcess(signalstore, ["sync", "--once", "--postgres", url, "--db", path])
        Thread.sleep(forTimeInterval: Double(delay) / 1000)
        let running = sync.process.isRunning
        sync.send(SIGKILL)
        _ = sync.waitForExit(timeout: 10)
        return running
    }

    static func tasks(_ path: String) throws -> [(team: Int, line: String)] {
        try sqlite3(path, "SELECT id, team_id, title, n FROM tasks ORDER BY id").split(separator: "\n").map { line in
            (Int(line.split(separator: "|")[1]) ?? 0, String(line))
        }
    }
}
#endif
