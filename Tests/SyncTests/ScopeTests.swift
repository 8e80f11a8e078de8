#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// Sync per scope, enforced by PostgreSQL's row-level security: a real server, roles that are
/// not superusers (superusers and table owners bypass row-level security), the built CLI for
/// what a DBA runs, and `psql` as each role for what a client that ignores the rules could do.
@Suite("Sync: scopes enforced by PostgreSQL's row-level security", .enabled(if: TestServer.isEnabled, "needs PostgreSQL"), .ownThread, .serialized)
struct ScopeTests {
    static let migrations = [Migration(version: 1, name: "teams", sql: """
        CREATE TABLE projects (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL, name TEXT NOT NULL);
        CREATE TABLE tasks (id INTEGER PRIMARY KEY, team_id INTEGER NOT NULL,
                            project_id INTEGER REFERENCES projects (id) ON DELETE CASCADE, title TEXT NOT NULL);
        CREATE TABLE labels (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        """)]

    /// The four roles' scopes: overlapping, and one role with a single scope.
    static let grants = [["1"], ["1", "2"], ["2", "3"], ["3"]]

    /// A scoped deployment: the administrator's replica (the superuser, which sees every
    /// scope) with three teams' rows and shared labels, set up and granted with the CLI, and
    /// one replica per role, synced once.
    struct Deployment {
        let folder = TemporaryDirectory()
        let adminURL: String
        let admin: Replica
        let roles: [String]
        let roleURLs: [String]
        let replicas: [Replica]

        init() async throws {
            adminURL = try TestServer.freshURL()
            admin = try Replica(folder, "admin", migrations: ScopeTests.migrations)
            try sqlite3(admin.path, """
                INSERT INTO projects VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three');
                INSERT INTO tasks VALUES (10, 1, 1, 'a'), (11, 1, 1, 'b'), (12, 2, 2, 'c'), (13, 2, 2, 'd'), (14, 3, 3, 'e'), (15, 3, 3, 'f');
                INSERT INTO labels VALUES (1, 'urgent'), (2, 'later');
                """)
            let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(8)
            roles = (1...4).map { "r\($0)_\(suffix)" }
            for role in roles { try ScopeTests.psqlAsAdmin(adminURL, "CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'") }
            try ScopeTests.cli(["sync", "setup", "--postgres", adminURL, "--scope-column", "team_id", "--db", admin.path])
            for (role, scopes) in zip(roles, ScopeTests.grants) { try ScopeTests.cli(["sync", "grant", "--postgres", adminURL, role] + scopes) }
            try ScopeTests.cli(["sync", "--once", "--postgres", adminURL, "--db", admin.path])
            let adminURL = adminURL
            roleURLs = roles.map { role in ScopeTests.url(adminURL, as: role) }
            var replicas: [Replica] = []
            for (index, url) in roleURLs.enumerated() {
                let replica = try Replica(folder, "replica\(index + 1)", migrations: ScopeTests.migrations)
                try await replica.client(url).syncOnce()
                replicas.append(replica)
            }
            self.replicas = replicas
        }
    }

    @Test func eachRoleHoldsExactlyItsScopesAndTheSharedTables() async throws {
        let deployment = try await Deployment()
        let listed = try await SyncScopes.grants(try PostgresURL(deployment.adminURL))
        #expect(listed.map { "\($0.role):\($0.scope)" } == zip(deployment.roles, Self.grants).flatMap { role, scopes in scopes.map { "\(role):\($0)" } })
        for (replica, scopes) in zip(deployment.replicas, Self.grants) {
            #expect(try Self.teams(replica.path) == Set(scopes), "\(replica.path)")
            #expect(try sqlite3(replica.path, "SELECT count(*) FROM tasks").trimmed == String(scopes.count * 2))
            #expect(try sqlite3(replica.path, "SELECT group_concat(name) FROM labels ORDER BY id").trimmed == "urgent,later")
        }
    }

    @Test func aWriteOutsideTheGrantsIsRefusedListedAndNeverStopsSync() async throws {
        let deployment = try await Deployment()
        let replica = deployment.replicas[0]   // scope 1 only
        try sqlite3(replica.path, "INSERT INTO tasks VALUES (20, 3, NULL, 'not mine'); INSERT INTO tasks VALUES (21, 1, 1, 'mine')")
        let client = try replica.client(deployment.roleURLs[0])
        try await client.syncOnce()
        let refused = try #require(client.conflicts.value.first)
        #expect(client.conflicts.value.count == 1)
        #expect(refused.isLocal && refused.table == "tasks" && refused.key == [.integer(20)] && refused.operation == .insert)
        #expect(refused.rule.contains("refused by the server") && refused.rule.contains("no grant for scope 3"), "\(refused.rule)")
        #expect(refused.row?["title"] == .text("not mine"))
        #expect(try sqlite3(replica.path, "SELECT id FROM tasks WHERE id >= 20").trimmed == "21", "the refused insert is undone here")
        let listed = try runProgram(signalstore, ["sync", "conflicts", "--db", replica.path])
        #expect(listed.output.contains("refused by the server"), "\(listed.output)")

        try Self.cli(["sync", "--once", "--postgres", deployment.adminURL, "--db", deployment.admin.path])
        #expect(try sqlite3(deployment.admin.path, "SELECT group_concat(id) FROM tasks WHERE id >= 20").trimmed == "21")
        // Sync goes on: a later write in scope 1 goes up.
        try sqlite3(replica.path, "UPDATE tasks SET title = 'renamed' WHERE id = 21")
        try await client.syncOnce()
        try Self.cli(["sync", "--once", "--postgres", deployment.adminURL, "--db", deployment.admin.path])
        #expect(try sqlite3(deployment.admin.path, "SELECT title FROM tasks WHERE id = 21").trimmed == "renamed")
    }

    @Test func psqlAsEachRoleReadsAndWritesNothingOutsideItsScopes() async throws {
        let deployment = try await Deployment()
        let schema = try PostgresURL(deployment.adminURL).schema
        let tasksOfTeam = ["1": 10, "2": 12, "3": 14]
        for (url, held) in zip(deployment.roleURLs, Self.grants) {
            let lacked = try #require(["1", "2", "3"].first { !held.contains($0) })
            let mine = "ARRAY[\(held.map { "'\($0)'" }.joined(separator: ","))]"
            #expect(try Self.runPsql(url, "SELECT count(*) FROM \(schema).log WHERE scope IS NOT NULL AND scope <> ALL(\(mine)) AND coalesce(previous_scope, '') <> ALL(\(mine))").output.trimmed == "0", "\(held)")
            #expect(try Self.runPsql(url, "SELECT count(*) FROM \(schema).log WHERE tbl = 'tasks'").output.trimmed == String(held.count * 2), "\(held)")
            // Through the server's own append, as the role: refused by scope, and recorded as
            // the role's refusals; nothing enters the log.
            let origin = "forged-\(held.joined())"
            let forged = #"[[1, 1, "tasks", "[{\"i\":\#(tasksOfTeam[lacked]!)}]", "update", "title", "{\"t\":\"x\"}"], [2, 1, "tasks", "[{\"i\":97}]", "insert", null, "{\"id\":{\"i\":97},\"team_id\":{\"i\":\#(lacked)}}"]]"#
            let appended = try Self.runPsql(url, "SELECT added, refused FROM \(schema).append('\(origin)', '\(forged)')")
            #expect(appended.status == 0 && appended.output.hasPrefix("0|") && appended.output.components(separatedBy: "no grant for scope \(lacked)").count == 3, "\(held): \(appended.output)\(appended.error)")
            let direct = try Self.runPsql(url, "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op) VALUES (800, 'forged', 1, 1, 'labels', '[{\"i\":9}]', 'delete')")
            #expect(direct.status != 0 && direct.error.contains("permission denied"), "\(held): \(direct.error)")
        }
        let url = deployment.roleURLs[0]   // scope 1 only
        #expect(try Self.runPsql(url, "SELECT count(*) FROM \(schema).log WHERE scope IS NOT NULL AND scope <> '1' AND coalesce(previous_scope, '') <> '1'").output.trimmed == "0")
        #expect(try Self.runPsql(url, "SELECT count(*) FROM \(schema).log WHERE tbl = 'tasks'").output.trimmed == "2")
        #expect(try Self.runPsql(url, "SELECT count(*) FROM \(schema).log WHERE tbl = 'labels'").output.trimmed == "2", "shared tables are everyone's")
        #expect(try Self.runPsql(url, "SELECT string_agg(scope, ',') FROM \(schema).grants").output.trimmed == "1", "a role sees its own grants only")

        let forged = [
            // An update of team 2's task, then an insert into team 3, each as the role itself.
            "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload) VALUES (900, 'forged', 1, 1, 'tasks', '[{\"i\":12}]', 'update', 'title', '{\"t\":\"x\"}')",
            "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, payload) VALUES (901, 'forged', 2, 1, 'tasks', '[{\"i\":99}]', 'insert', '{\"id\":{\"i\":99},\"team_id\":{\"i\":3}}')",
            // Taking a task of team 2 into team 1, where the role may write.
            "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload) VALUES (902, 'forged', 3, 1, 'tasks', '[{\"i\":12}]', 'update', 'team_id', '{\"i\":1}')",
            // Posing as another role.
            "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, payload, uploaded_by) VALUES (903, 'forged', 4, 1, 'tasks', '[{\"i\":98}]', 'insert', '{\"id\":{\"i\":98},\"team_id\":{\"i\":1}}', '\(deployment.roles[1])')",
            "UPDATE \(schema).log SET payload = NULL",
            "DELETE FROM \(schema).log",
            "SELECT * FROM \(schema).row_scopes",
            "INSERT INTO \(schema).grants VALUES ('\(deployment.roles[0])', '3')",
        ]
        for statement in forged {
            let result = try Self.runPsql(url, statement)
            #expect(result.status != 0, "psql as the role was allowed: \(statement)")
            #expect(result.error.contains("no grant for scope") || result.error.contains("permission denied") || result.error.contains("row-level security"), "\(statement): \(result.error)")
        }
        #expect(try Self.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).log WHERE origin LIKE 'forged%'").output.trimmed == "0")
        // No role moves an upload mark, its own included: the server's append does.
        #expect(try Self.runPsql(url, "UPDATE \(schema).origins SET uploaded_through = 0").error.contains("permission denied"))
        #expect(try Self.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).origins WHERE uploaded_through > 0 AND origin NOT LIKE 'forged%'").output.trimmed == "1")
        #expect(try Self.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).grants WHERE scope = '3'").output.trimmed == "2")
    }

    @Test func aMovedRowLeavesTheReplicasThatLoseItsScopeAndArrivesWholeWhereItIsGained() async throws {
        let deployment = try await Deployment()
        let (one, oneTwo, twoThree, three) = (deployment.replicas[0], deployment.replicas[1], deployment.replicas[2], deployment.replicas[3])
        try sqlite3(oneTwo.path, "UPDATE tasks SET team_id = 2, project_id = 2 WHERE id = 10")
        try await oneTwo.client(deployment.roleURLs[1]).syncOnce()
        for (replica, url) in zip([one, twoThree, three], [deployment.roleURLs[0], deployment.roleURLs[2], deployment.roleURLs[3]]) {
            try await replica.client(url).syncOnce()
        }
        #expect(try sqlite3(one.path, "SELECT count(*) FROM tasks WHERE id = 10").trimmed == "0", "scope 1 lost the row")
        #expect(try sqlite3(twoThree.path, "SELECT id, team_id, project_id, title FROM tasks WHERE id = 10").trimmed == "10|2|2|a", "scope 2 gained it whole")
        #expect(try sqlite3(oneTwo.path, "SELECT id, team_id, project_id, title FROM tasks WHERE id = 10").trimmed == "10|2|2|a")
        #expect(try sqlite3(three.path, "SELECT count(*) FROM tasks WHERE id = 10").trimmed == "0")
        // Later changes follow it to its new scope.
        try sqlite3(twoThree.path, "UPDATE tasks SET title = 'moved' WHERE id = 10")
        try await twoThree.client(deployment.roleURLs[2]).syncOnce()
        try await oneTwo.client(deployment.roleURLs[1]).syncOnce()
        try await one.client(deployment.roleURLs[0]).syncOnce()
        #expect(try sqlite3(oneTwo.path, "SELECT title FROM tasks WHERE id = 10").trimmed == "moved")
        #expect(try sqlite3(one.path, "SELECT count(*) FROM tasks WHERE id = 10").trimmed == "0")
    }

    @Test func aGrantAndARevokeTakeEffectUnderARunningSync() async throws {
        let deployment = try await Deployment()
        let replica = deployment.replicas[3]   // scope 3 only
        let client = try replica.client(deployment.roleURLs[3])
        let running = taskOnOwnThread { try await client.run() }
        defer { running.cancel() }
        #expect(await eventuallyAsync { client.progress.value.scopes == ["3"] })
        // The same role's other replica, as the CLI runs it: its status lines say what changed.
        let other = try Replica(deployment.folder, "cli", migrations: Self.migrations)
        let cli = try ChildProcess(signalstore, ["sync", "--postgres", deployment.roleURLs[3], "--db", other.path])
        defer {
            cli.send(SIGINT)
            _ = cli.waitForExit(timeout: 10)
        }
        #expect(cli.output.wait(timeout: 20) { $0.contains("scopes: 3\n") }, "\(cli.output.value)\(cli.error.value)")

        try Self.cli(["sync", "grant", "--postgres", deployment.adminURL, deployment.roles[3], "1"])
        #expect(try await eventuallyAsync { try Self.teams(replica.path) == ["1", "3"] }, "the new scope's rows arrive")
        // The count moves once the history is applied, just after its rows are there.
        #expect(await eventuallyAsync { client.progress.value.scopes == ["1", "3"] && client.progress.value.scopeEntriesFetched == 3 }, "\(client.progress.value)")
        #expect(try sqlite3(replica.path, "SELECT count(*) FROM tasks WHERE team_id = 1").trimmed == "2")
        #expect(cli.output.wait(timeout: 20) { $0.contains("scopes: 1, 3; so far fetched 3 entries for scopes gained, removed 0 rows of scopes lost") }, "\(cli.output.value)")

        // The new scope's doorbell rings: a change there arrives without a poll.
        try sqlite3(deployment.admin.path, "INSERT INTO tasks VALUES (30, 1, 1, 'after the grant')")
        try Self.cli(["sync", "--once", "--postgres", deployment.adminURL, "--db", deployment.admin.path])
        #expect(try await eventuallyAsync(timeout: .seconds(4)) { try sqlite3(replica.path, "SELECT count(*) FROM tasks WHERE id = 30").trimmed == "1" })

        try Self.cli(["sync", "revoke", "--postgres", deployment.adminURL, deployment.roles[3], "3"])
        #expect(try await eventuallyAsync { try Self.teams(replica.path) == ["1"] }, "the revoked scope's rows go")
        #expect(await eventuallyAsync { client.progress.value.scopes == ["1"] && client.progress.value.scopeRowsRemoved == 3 }, "\(client.progress.value)")
        #expect(cli.output.wait(timeout: 20) { $0.contains("scopes: 1; so far fetched") && $0.contains("removed 3 rows of scopes lost") }, "\(cli.output.value)")
        #expect(try sqlite3(replica.path, "SELECT count(*) FROM labels").trimmed == "2", "shared rows stay")
        // Nothing of the removal went up: the administrator still has scope 3's rows.
        try Self.cli(["sync", "--once", "--postgres", deployment.adminURL, "--db", deployment.admin.path])
        #expect(try sqlite3(deployment.admin.path, "SELECT count(*) FROM tasks WHERE team_id = 3").trimmed == "2")
        if case .failed(let error) = client.status.value { Issue.record("sync stopped: \(error)") }
    }

    @Test func setupMigratesADeploymentThatAlreadySyncsAndGroupRolesPassTheirScopesOn() async throws {
        let folder = TemporaryDirectory()
        let adminURL = try TestServer.freshURL()
        let admin = try Replica(folder, "admin", migrations: Self.migrations)
        try sqlite3(admin.path, """
            INSERT INTO projects VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three');
            INSERT INTO tasks VALUES (10, 1, 1, 'a'), (12, 2, 2, 'c'), (14, 3, 3, 'e');
            """)
        try Self.cli(["sync", "--once", "--postgres", adminURL, "--db", admin.path])   // no scopes yet
        try sqlite3(admin.path, "UPDATE tasks SET team_id = 2, project_id = 2 WHERE id = 14")   // a move, before scopes
        try Self.cli(["sync", "--once", "--postgres", adminURL, "--db", admin.path])

        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(8)
        let (member, group, stranger) = ("m_\(suffix)", "g_\(suffix)", "s_\(suffix)")
        try Self.psqlAsAdmin(adminURL, "CREATE ROLE \(member) LOGIN PASSWORD 'pw-\(member)'; CREATE ROLE \(group) NOLOGIN; GRANT \(group) TO \(member); CREATE ROLE \(stranger) LOGIN PASSWORD 'pw-\(stranger)'")
        let schema = try PostgresURL(adminURL).schema
        #expect(try Self.runPsql(Self.url(adminURL, as: stranger), "SELECT count(*) FROM \(schema).log").status != 0, "before setup, other roles cannot read the log")

        try Self.cli(["sync", "setup", "--postgres", adminURL, "--scope-column", "team_id", "--db", admin.path])
        try Self.cli(["sync", "setup", "--postgres", adminURL, "--scope-column", "team_id", "--db", admin.path])   // idempotent
        try Self.cli(["sync", "grant", "--postgres", adminURL, member, "1"])
        try Self.cli(["sync", "grant", "--postgres", adminURL, group, "2"])
        #expect(try Self.runPsql(adminURL, "SELECT count(*) FROM \(schema).log WHERE tbl <> 'labels' AND scope IS NULL").output.trimmed == "0", "every entry got its scope")

        let replica = try Replica(folder, "member", migrations: Self.migrations)
        try await replica.client(Self.url(adminURL, as: member)).syncOnce()
        #expect(try Self.teams(replica.path) == ["1", "2"], "its own scope and its group's")
        #expect(try sqlite3(replica.path, "SELECT group_concat(id) FROM tasks ORDER BY id").trimmed == "10,12,14", "the task moved into scope 2 before setup is there")

        // A role with no grant is told what to do, in one line, without its password.
        let strangers = try Replica(folder, "stranger", migrations: Self.migrations)
        let refused = try runProgram(signalstore, ["sync", "--once", "--postgres", Self.url(adminURL, as: stranger), "--db", strangers.path])
        #expect(refused.status != 0)
        #expect(refused.error.contains("signalstore sync grant") && !refused.error.contains("pw-\(stranger)"), "\(refused.error)")
        #expect(refused.error.split(separator: "\n").count == 2, "\(refused.error.prefix(1500))")   // the command's own line, then the error
    }

    @Test func badInputToTheDBAsCommandsIsOneLineThatSaysWhatToDoAndChangesNothing() async throws {
        let deployment = try await Deployment()
        let schema = try PostgresURL(deployment.adminURL).schema
        let grantsBefore = try Self.runPsql(deployment.adminURL, "SELECT string_agg(role || ':' || scope, ',' ORDER BY role, scope) FROM \(schema).grants").output
        let cases: [([String], String)] = [
            (["sync", "grant", "--postgres", deployment.adminURL, "nobody_here", "1"], "has no role 'nobody_here'; create it first"),
            (["sync", "grant", "--postgres", deployment.adminURL, deployment.roles[0]], "name the scopes to grant"),
            (["sync", "revoke", "--postgres", deployment.adminURL, deployment.roles[0], ""], "name at least one scope"),
            (["sync", "setup", "--postgres", deployment.adminURL, "--scope-column", "tenant", "--db", deployment.admin.path], "no synced table of this database has a column 'tenant'"),
            (["sync", "setup", "--postgres", deployment.adminURL, "--scope-column", "id", "--db", deployment.admin.path], "is part of the primary key"),
            (["sync", "grant", "--postgres", deployment.roleURLs[0], deployment.roles[0], "3"], "permission denied"),
        ]
        for (arguments, expected) in cases {
            let result = try runProgram(signalstore, arguments)
            #expect(result.status != 0, "\(arguments)")
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1 && result.error.contains(expected), "\(arguments): \(result.error)")
            #expect(!result.error.contains(TestServer.password) && !result.error.contains("pw-"), "a password was printed: \(result.error)")
        }
        #expect(try Self.runPsql(deployment.adminURL, "SELECT string_agg(role || ':' || scope, ',' ORDER BY role, scope) FROM \(schema).grants").output == grantsBefore)
    }

    // The `SyncScopes` documentation's example, as written.
    func prepare(_ store: Store) async throws {
        let admin = try PostgresURL("postgres://admin@db.example.com/app")
        let scoped = try await SyncScopes.setUp(admin, scopeColumn: "team_id", store: store)
        print("scoped tables:", scoped.keys.sorted())
        try await SyncScopes.grant(admin, role: "alice", scopes: ["7", "9"])
    }

    @Test func theDocumentationsExampleCompilesAndFailsInOneLineWhereTheServerIsUnknown() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a", migrations: Self.migrations)
        await #expect(throws: SyncError.self) { try await prepare(replica.store) }   // db.example.com does not resolve here
    }

    // MARK: Helpers

    /// The teams whose rows a replica holds.
    static func teams(_ path: String) throws -> Set<String> {
        Set(try sqlite3(path, "SELECT team_id FROM projects UNION SELECT team_id FROM tasks").split(separator: "\n").map(String.init))
    }

    /// `url` as `role`, with its password.
    static func url(_ url: String, as role: String) -> String {
        var components = URLComponents(string: url)!
        components.user = role
        components.password = "pw-\(role)"
        return components.string!
    }

    /// Runs the built CLI, which must succeed.
    static func cli(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try runProgram(signalstore, arguments)
        try #require(result.status == 0, "signalstore \(arguments.prefix(2).joined(separator: " ")) failed: \(result.error)", sourceLocation: sourceLocation)
    }

    /// Runs one statement with `psql` as the URL's role.
    static func runPsql(_ url: String, _ sql: String) throws -> (status: Int32, output: String, error: String) {
        let plain = url.components(separatedBy: "?").first! + "?sslmode=disable"
        return try runProgram(URL(fileURLWithPath: ForeignTool.psql.path()), [plain, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
    }

    static func psqlAsAdmin(_ url: String, _ sql: String) throws {
        let result = try runPsql(url, sql)
        try #require(result.status == 0, "psql: \(result.error)")
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
#endif
