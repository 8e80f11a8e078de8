#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// The server trusts no client: one role, with `psql` and its password, cannot stop, reorder or
/// speak for another replica. Each attack is a statement a plain role can run (real
/// PostgreSQL 15, roles that are not superusers, the deployment `signalstore sync setup` makes);
/// after each, the other replicas keep syncing and converge, and nothing of the attacker's
/// reaches them.
@Suite("Sync: the server trusts no client", .enabled(if: TestServer.isEnabled, "needs PostgreSQL"), .ownThread, .serialized)
struct ServerTrustTests {
    typealias Deployment = ScopeTests.Deployment

    /// The attacker: the second role (scopes 1 and 2), as `psql`.
    static func attack(_ deployment: Deployment, _ sql: String) throws -> (status: Int32, output: String, error: String) {
        try ScopeTests.runPsql(deployment.roleURLs[1], sql)
    }

    static func schema(_ deployment: Deployment) throws -> String { try PostgresURL(deployment.adminURL).schema }

    /// The first role's replica (scope 1) writes a task and a label; the second's (scopes 1 and
    /// 2) must receive both: sync goes on for everyone after the attack.
    static func othersStillSync(_ deployment: Deployment, _ mark: String, unreadable: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (writer, reader) = (deployment.replicas[0], deployment.replicas[1])
        let id = Int.random(in: 1_000...9_999)
        try sqlite3(writer.path, "INSERT INTO tasks VALUES (\(id), 1, 1, '\(mark)'); INSERT INTO labels VALUES (\(id), '\(mark)')")
        try await writer.client(deployment.roleURLs[0]).syncOnce()
        try await reader.client(deployment.roleURLs[1]).syncOnce()
        #expect(try sqlite3(reader.path, "SELECT title FROM tasks WHERE id = \(id)").trimmed == mark, sourceLocation: sourceLocation)
        #expect(try sqlite3(reader.path, "SELECT name FROM labels WHERE id = \(id)").trimmed == mark, sourceLocation: sourceLocation)
        for (replica, url) in zip(deployment.replicas, deployment.roleURLs) {
            let client = try replica.client(url)
            try await client.syncOnce()
            #expect(client.conflicts.value.filter { $0.kind == .unreadable }.count == unreadable, "\(client.conflicts.value)", sourceLocation: sourceLocation)
        }
    }

    @Test func noRoleMovesTheCounter() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        let result = try Self.attack(deployment, "UPDATE \(schema).counter SET next = 1")
        #expect(result.status != 0 && result.error.contains("permission denied"), "\(result.error)")
        #expect(try Self.attack(deployment, "SELECT next FROM \(schema).counter").status == 0, "reading it is allowed")
        try await Self.othersStillSync(deployment, "after the counter")
    }

    @Test func noRoleUploadsUnderAnotherRolesOrigin() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        try await Self.othersStillSync(deployment, "first")   // the first role's origin is now in the log
        let victim = try #require(try Self.attack(deployment, "SELECT DISTINCT origin FROM \(schema).log WHERE tbl = 'labels' AND uploaded_by = '\(deployment.roles[0])'").output.trimmed.split(separator: "\n").first)
        let notes = (1...20).map { #"[\#(900 + $0), 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"forged\"}"]"# }
        let result = try Self.attack(deployment, "SELECT * FROM \(schema).append('\(victim)', '[\(notes.joined(separator: ","))]')")
        #expect(result.status != 0 && result.error.contains("belongs to role \(deployment.roles[0])"), "\(result.error)")
        let direct = try Self.attack(deployment, "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload) VALUES (1000, '\(victim)', 901, 1, 'labels', '[{\"i\":1}]', 'update', 'name', '{\"t\":\"forged\"}')")
        #expect(direct.status != 0 && direct.error.contains("permission denied"), "\(direct.error)")
        #expect(try ScopeTests.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).log WHERE payload LIKE '%forged%'").output.trimmed == "0")
        try await Self.othersStillSync(deployment, "after the forgery")
        #expect(try sqlite3(deployment.replicas[2].path, "SELECT name FROM labels WHERE id = 1").trimmed == "urgent")
    }

    @Test func noRoleWritesUploadedByOrChangesTheLog() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        for statement in [
            "INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, uploaded_by) VALUES (1000, 'mine', 1, 1, 'labels', '[{\"i\":1}]', 'delete', '\(deployment.roles[0])')",
            "UPDATE \(schema).log SET payload = NULL",
            "UPDATE \(schema).log SET position = position + 1000",
            "DELETE FROM \(schema).log",
            "UPDATE \(schema).origins SET uploaded_by = '\(deployment.roles[1])'",
            "INSERT INTO \(schema).refusals (origin, origin_seq, reason) VALUES ('x', 1, 'x')",
            "INSERT INTO \(schema).synced_tables VALUES ('junk', ARRAY['a'], 1)",
            "UPDATE \(schema).limits SET max_value_bytes = 1",
        ] {
            let result = try Self.attack(deployment, statement)
            #expect(result.status != 0 && result.error.contains("permission denied"), "\(statement): \(result.error)")
        }
        // Through the server's own append, `uploaded_by` is who connected.
        let appended = try Self.attack(deployment, #"SELECT added FROM \#(schema).append('attackers-own', '[[1, 1, "labels", "[{\"i\":77}]", "insert", null, "{\"id\":{\"i\":77},\"name\":{\"t\":\"mine\"}}"]]')"#)
        #expect(appended.output.trimmed == "1", "\(appended.error)")
        #expect(try ScopeTests.runPsql(deployment.adminURL, "SELECT uploaded_by FROM \(schema).log WHERE origin = 'attackers-own'").output.trimmed == deployment.roles[1])
        try await Self.othersStillSync(deployment, "after the writes")
        // Another replica's history of the row says who uploaded it, as the server recorded it.
        let history = try runProgram(signalstore, ["history", "labels", "77", "--postgres", deployment.roleURLs[2], "--db", deployment.replicas[2].path])
        #expect(history.status == 0 && history.output.contains("insert") && history.output.contains("by replica attackers-own, uploaded by \(deployment.roles[1])"), "\(history.output)\(history.error)")
        #expect(!history.output.contains("pw-"), "a password was printed")
    }

    /// Each kind of malformed entry, and the refusal it gets.
    static let malformedEntries = [
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "not json"]"#, "invalid input syntax for type json"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"x\":1}"]"#, "names its column and carries a value of the log"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "frobnicate", null, null]"#, "none of insert, update, delete"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", null, "{\"t\":\"x\"}"]"#, "an update of labels names its column"),
        (#"[1, 1, "labels", "{}", "delete", null, null]"#, "is not a JSON array of values"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "insert", null, "[1]"]"#, "a row that is an object of values"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "delete", null, "{\"t\":\"x\"}"]"#, "carries no column and no payload"),
        (#"[-1, 1, "labels", "[{\"i\":1}]", "delete", null, null]"#, "the seq and stamp whole numbers"),
        (#"[1, 1.5, "labels", "[{\"i\":1}]", "delete", null, null]"#, "the seq and stamp whole numbers"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "delete"]"#, "an entry is [seq, stamp, table, key, operation, column, payload]"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "colour", "{\"t\":\"x\"}"]"#, "column labels.colour does not sync on this server"),
        (#"[1, 1, "secrets", "[{\"i\":1}]", "delete", null, null]"#, "table secrets does not sync on this server"),
        (#"[1, 1, "labels", "[{\"i\":1},{\"i\":2}]", "delete", null, null]"#, "has 2 values, and the table's primary key has 1"),
        (#"[1, 9223372036854775807, "labels", "[{\"i\":1}]", "delete", null, null]"#, "more than a day ahead of the server's clock"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"x\"}", 3, null, null]"#, "carries the value it replaced"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"x\"}", 3, "{\"q\":1}", null]"#, "carries the value it replaced"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"x\"}", "three", "{\"t\":\"w\"}", null]"#, "the seq and stamp whole numbers, and the positions"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "delete", null, null, 3, "{\"t\":\"w\"}", null]"#, "only an update of labels that says what it had seen carries a base"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "insert", null, "{\"id\":{\"i\":1}}", 3, "{\"t\":\"w\"}", null]"#, "only an update of labels that says what it had seen carries a base"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "delete", null, null, null, null, 7]"#, "other than an update resolves a concurrent edit"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"x\"}", null, null, -4]"#, "the seq and stamp whole numbers, and the positions"),
        (#"[1, 1, "labels", "[{\"i\":1}]", "update", "name", "{\"t\":\"x\"}", null, null]"#, "an entry is [seq, stamp, table, key, operation, column, payload]"),
    ]

    /// Each kind of malformed entry, under the attacker's own origin, one after another against
    /// one deployment: the server refuses the call whole (nothing stored), or refuses the entry
    /// alone (listed for its uploader only); nothing enters the log, and sync goes on for the
    /// others afterwards.
    @Test func malformedEntriesStopNobody() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        // Each under an origin of its own, as a first upload: no case is taken for a resend of
        // the one before.
        for (index, (entry, refusal)) in Self.malformedEntries.enumerated() {
            let before = try ScopeTests.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).log").output
            let result = try Self.attack(deployment, "SELECT added, refused FROM \(schema).append('attackers-own-\(index)', '[\(entry)]')")
            #expect(result.error.contains(refusal) || (result.output.hasPrefix("0|") && result.output.contains(refusal)), "\(entry): \(result.output)\(result.error)")
            #expect(try ScopeTests.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).log").output == before, "\(entry): nothing entered the log")
        }
        try await Self.othersStillSync(deployment, "after the malformed entries")
    }

    @Test func aHundredMegabyteValueAndTenThousandJunkEntriesAreRefused() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        let big = try Self.attack(deployment, """
            SELECT added, left(refused, 200) FROM \(schema).append('attackers-own',
                json_build_array(json_build_array(1, 1, 'labels', '[{"i":1}]', 'update', 'name', json_build_object('t', repeat('x', 100000000))::text))::text)
            """)
        #expect(big.output.hasPrefix("0|") && big.output.contains("over the server's limit of 1048576 bytes"), "\(big.output)\(big.error)")
        let junk = try Self.attack(deployment, """
            SELECT added FROM \(schema).append('attackers-own',
                (SELECT json_agg(json_build_array(g + 1, 1, 'labels', '[{"i":1}]', 'frobnicate', NULL, NULL))::text FROM generate_series(1, 10000) AS g))
            """)
        #expect(junk.status != 0 && junk.error.contains("none of insert, update, delete"), "\(junk.error)")
        let unsynced = try Self.attack(deployment, """
            SELECT added, refused IS NOT NULL FROM \(schema).append('attackers-own',
                (SELECT json_agg(json_build_array(g + 1, 1, 'secrets', '[{"i":1}]', 'delete', NULL, NULL))::text FROM generate_series(1, 10000) AS g))
            """)
        #expect(unsynced.output.trimmed == "0|t", "\(unsynced.output)\(unsynced.error)")
        #expect(try ScopeTests.runPsql(deployment.adminURL, "SELECT count(*) FROM \(schema).log WHERE origin = 'attackers-own'").output.trimmed == "0")
        try await Self.othersStillSync(deployment, "after the junk")
    }

    /// A good client's change that the deployment does not take is refused alone, and listed on
    /// its own replica as refused; its other changes go up.
    @Test func aValueOverTheLimitIsTheUploadersRefusalAndNobodyElses() async throws {
        let deployment = try await Deployment()
        try ScopeTests.cli(["sync", "setup", "--postgres", deployment.adminURL, "--scope-column", "team_id", "--db", deployment.admin.path, "--max-value-bytes", "64"])
        let (writer, reader) = (deployment.replicas[0], deployment.replicas[1])
        try sqlite3(writer.path, "UPDATE tasks SET title = '\(String(repeating: "long ", count: 20))' WHERE id = 10; UPDATE tasks SET title = 'short' WHERE id = 11")
        let client = try writer.client(deployment.roleURLs[0])
        try await client.syncOnce()
        let refused = try #require(client.conflicts.value.first)
        #expect(client.conflicts.value.count == 1 && refused.kind == .refused && refused.key == [.integer(10)], "\(client.conflicts.value)")
        #expect(refused.rule.contains("over the server's limit of 64 bytes"), "\(refused.rule)")
        try await reader.client(deployment.roleURLs[1]).syncOnce()
        #expect(try sqlite3(reader.path, "SELECT title FROM tasks WHERE id IN (10, 11) ORDER BY id").trimmed == "a\nshort")
        let listed = try runProgram(signalstore, ["sync", "conflicts", "--json", "--db", writer.path])
        #expect(listed.output.contains(#""kind":"refused""#), "\(listed.output)")
        let bad = try runProgram(signalstore, ["sync", "setup", "--postgres", deployment.adminURL, "--scope-column", "team_id", "--db", deployment.admin.path, "--max-value-bytes", "0"])
        #expect(bad.status != 0 && bad.error.contains("positive number of bytes"), "\(bad.error)")
    }

    @Test func aReplicaFileSyncedAsAnotherRoleIsToldWhatToDo() async throws {
        let deployment = try await Deployment()
        let replica = deployment.replicas[0]
        try sqlite3(replica.path, "INSERT INTO labels VALUES (50, 'mine')")
        try await replica.client(deployment.roleURLs[0]).syncOnce()
        try sqlite3(replica.path, "INSERT INTO labels VALUES (51, 'as another')")
        let result = try runProgram(signalstore, ["sync", "--once", "--postgres", deployment.roleURLs[1], "--db", replica.path])
        #expect(result.status != 0 && result.error.contains("belongs to role \(deployment.roles[0])") && result.error.contains("--new-origin"), "\(result.error)")
        #expect(!result.error.contains("pw-"), "a password was printed")
    }

    /// A log the owner wrote around SignalStore (or an older version, or a newer one): each
    /// entry this replica cannot read is set aside, listed with its position, and sync goes on
    /// with the entries after it.
    @Test func anEntryNoReplicaCanReadIsSetAsideAndSyncGoesOn() async throws {
        let deployment = try await Deployment()
        let schema = try Self.schema(deployment)
        let rows = [
            #"('frobnicate', NULL, NULL)"#, #"('update', 'name', 'not json')"#, #"('insert', NULL, '[1]')"#, #"('update', NULL, '{"t":"x"}')"#,
        ]
        try ScopeTests.psqlAsAdmin(deployment.adminURL, """
            INSERT INTO \(schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload)
            SELECT c.next + v.n - 1, 'by-hand', v.n, 1, 'labels', '[{"i":1}]', v.op, v.col, v.payload
            FROM \(schema).counter c, (SELECT row_number() OVER () AS n, * FROM (VALUES \(rows.joined(separator: ", "))) AS r(op, col, payload)) AS v;
            UPDATE \(schema).counter SET next = next + \(rows.count)
            """)
        try sqlite3(deployment.admin.path, "UPDATE labels SET name = 'after' WHERE id = 2")
        try ScopeTests.cli(["sync", "--once", "--postgres", deployment.adminURL, "--db", deployment.admin.path])
        let replica = deployment.replicas[2]
        let result = try runProgram(signalstore, ["sync", "--once", "--postgres", deployment.roleURLs[2], "--db", replica.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("\(rows.count) new conflicts: signalstore sync conflicts"), "the status line says so: \(result.output)")
        #expect(try sqlite3(replica.path, "SELECT name FROM labels ORDER BY id").trimmed == "urgent\nafter", "the entries after them arrived")
        let client = try replica.client(deployment.roleURLs[2])
        try await client.syncOnce()
        let unreadable = client.conflicts.value.filter { $0.kind == .unreadable }
        let owner = try PostgresURL(deployment.adminURL).username
        #expect(unreadable.count == rows.count && unreadable.allSatisfy { $0.origin == "by-hand" && $0.position != nil && $0.uploadedBy == owner }, "\(client.conflicts.value)")
        #expect(unreadable.contains { $0.rule.contains("operation 'frobnicate'") })
        let listed = try runProgram(signalstore, ["sync", "conflicts", "--db", replica.path])
        #expect(listed.output.contains("cannot read it"), "\(listed.output)")
        let reapplied = try runProgram(signalstore, ["sync", "conflicts", "--reapply", String(unreadable[0].id), "--db", replica.path])
        #expect(reapplied.status != 0 && reapplied.error.contains("nothing to re-apply; discard it"), "\(reapplied.error)")
        try await Self.othersStillSync(deployment, "after the hand-written entries", unreadable: rows.count)
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
#endif
