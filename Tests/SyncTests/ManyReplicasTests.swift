#if SIGNALSTORE_SYNC
import Foundation
import Signals
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// What lets many replicas sync at once: an upload never waits long for the log's lock, and a
/// replica's pending rows slow down applying only when a rule ties them to what it applies.
@Suite("Sync: many replicas at once", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL), psql"), .ownThread)
struct ManyReplicasTests {
    @Test("while another session holds the log's lock for 10 s, a running sync waits for it in short turns: never offline, its row on the other replica soon after")
    func uploadWaitsForTheLogsLockInShortTurns() async throws {
        // Waiting in PostgreSQL's queue for the lock looked like a dead link after 8 s: the
        // client went offline and reconnected, losing its place (seen with 50 replicas).
        try await rowGoesUpBehind(1, holding: "SELECT pg_sleep(10)", queuedAtLeast: 1, within: .seconds(5))
    }

    @Test("while 30 other sessions take the log's lock one after another for 12 s, each for less than an upload's lock wait, a running sync never goes offline, and its row reaches the other replica soon after the last")
    func uploadBehindAQueueOfLockHoldersStaysOnline() async throws {
        // PostgreSQL's `lock_timeout` bounds each wait for one holder, not the statement's: each
        // holder's update makes a new version of the row, and the waiters queue for it afresh.
        // An upload queued behind holders that each held the lock for less waited through them
        // all: with 50 replicas, 2-8 of them in each run whose output was kept waited until the
        // 8 s round deadline cut their connection, and the run ended only when those reconnected.
        try await rowGoesUpBehind(30, holding: "UPDATE %s.counter SET next = next WHERE id = 1; SELECT pg_sleep(0.4)", queuedAtLeast: 25, within: .seconds(3))
    }

    @Test("an upload's statement that runs past the user's own statement_timeout (here a trigger on the log sleeps 2 s) fails the round with an error that says so, at once: only the lock statement's own timeout means the log is busy, and trying again would fail the same way")
    func statementTimeoutOutsideTheLockIsAnError() async throws {
        let folder = TemporaryDirectory()
        let adminURL = try TestServer.freshURL()
        let role = "slow_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(8)
        try ScopeTests.psqlAsAdmin(adminURL, "CREATE ROLE \(role) LOGIN SUPERUSER PASSWORD 'pw-\(role)'; ALTER ROLE \(role) SET statement_timeout = '1s'")
        let b = try Replica(folder, "b")
        let syncB = try b.client(ScopeTests.url(adminURL, as: role))
        try await syncB.syncOnce()   // the log's tables, made as the role
        let schema = try #require(adminURL.components(separatedBy: "schema=").last)
        try ScopeTests.psqlAsAdmin(adminURL, """
            CREATE FUNCTION \(schema).slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$;
            CREATE TRIGGER slow AFTER INSERT ON \(schema).log FOR EACH STATEMENT EXECUTE FUNCTION \(schema).slow();
            """)
        try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'slow to store')")

        // Taken for a busy log, the round would try again, each try cancelled after 1 s,
        // forever: it is cancelled after 30 s, and then fails as cancelled, not with this
        // error. (Beside the whole suite the setup above took 25 s once, and the round 10 s.)
        let start = ContinuousClock.now
        let round = Task { () -> String in
            do { try await syncB.syncOnce(); return "no error" } catch { return "\(error)" }
        }
        let watchdog = Task { try await Task.sleep(for: .seconds(30)); round.cancel() }
        let text = await round.value
        watchdog.cancel()
        #expect(text.contains("statement_timeout") && text.contains("user '\(role)'") && !text.contains("pw-"), "\(text)")
        #expect(ContinuousClock.now - start < .seconds(30), "the round ended by itself")
        #expect(try ScopeTests.runPsql(adminURL, "SELECT count(*) FROM \(schema).log").output.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// Replica B, with a row to upload, syncs beside A while `holders` `psql` sessions each
    /// take the log's lock and run `statements` (`%s` for the log's schema) before they commit:
    /// B never goes offline, and its row is on A within `after` of the last session's end.
    /// B starts once `queued` sessions hold the lock or wait for it.
    private func rowGoesUpBehind(_ holders: Int, holding statements: String, queuedAtLeast queued: Int, within after: Duration) async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try await syncA.syncOnce()
        try await syncB.syncOnce()

        let schema = try #require(url.components(separatedBy: "schema=").last)
        let transaction = "BEGIN; SELECT next FROM \(schema).counter WHERE id = 1 FOR UPDATE; \(statements.replacingOccurrences(of: "%s", with: schema)); COMMIT;"
        let sessions = try (0..<holders).map { _ in
            try ChildProcess(URL(fileURLWithPath: ForeignTool.psql.path()), [url.components(separatedBy: "?").first! + "?sslmode=disable", "-v", "ON_ERROR_STOP=1", "-c", transaction])
        }
        defer { for session in sessions { session.send(SIGKILL) } }
        #expect(try await eventuallyAsync(timeout: .seconds(10)) {
            let active = try ScopeTests.runPsql(url, "SELECT count(*) FROM pg_stat_activity WHERE query = '\(transaction)' AND state = 'active'").output
            return Int(active.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= queued
        })
        let offline = Locked<[String]>([])
        let watcher = syncB.status.signal.subscribe(onValue: { status in
            if case .offline(let error, _) = status { offline.withLock { $0.append(error.message) } }
        })
        defer { watcher.dispose() }
        let running = [Task { try await syncB.run() }, Task { try await syncA.run() }]
        defer { for task in running { task.cancel() } }
        try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'behind the lock')")

        for session in sessions { #expect(session.waitForExit(timeout: 60) == 0, "psql: \(session.error.value)") }
        let released = ContinuousClock.now
        #expect(try await eventuallyAsync(timeout: .seconds(10)) { try a.contents() == b.contents() && a.contents().count == 1 })
        #expect(ContinuousClock.now - released < after)
        #expect(offline.withLock { $0 }.isEmpty, "\(offline.withLock { $0 })")
    }

    @Test("pending rows slow applying only when a rule ties them to the batch: the same row, a UNIQUE key, a foreign key, a key change")
    func pendingRowsMeetABatchOnlyThroughARule() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let tables = try replica.store.readConnection { try SyncedTables(nil, replica.store.schema, $0) }
        func batch(_ entries: [(table: String, key: String, column: String?)]) -> BatchFootprint {
            var footprint = BatchFootprint()
            for (index, entry) in entries.enumerated() {
                let operation: Change.Operation = entry.column == nil ? .insert : .update
                let change = SyncEntry(originSeq: Int64(index + 1), clock: HybridLogicalClock(rawValue: 1), table: entry.table, key: entry.key,
                                       operation: operation, column: entry.column, payload: nil)
                footprint.note(RemoteEntry(position: Int64(index + 1), origin: "other", entry: change), tables.byName[entry.table])
            }
            return footprint
        }
        let orders = batch([("orders", "[{\"i\":1}]", nil), ("orders", "[{\"i\":2}]", "status")])

        // Orders have no UNIQUE key besides the primary key and no rows reference them.
        #expect(!orders.mayMeet([("orders", "[{\"i\":3}]", nil), ("orders", "[{\"i\":4}]", "status")], tables))
        #expect(orders.mayMeet([("orders", "[{\"i\":2}]", "purchase_num")], tables), "the same row: a CHECK reads both columns")
        #expect(orders.mayMeet([("orders", "[{\"i\":3}]", "id")], tables), "a pending key change")
        #expect(orders.mayMeet([("customers", "[{\"i\":3}]", nil)], tables), "orders reference customers")
        // Customers have a UNIQUE email, and orders reference them.
        let customers = batch([("customers", "[{\"i\":1}]", nil)])
        #expect(customers.mayMeet([("customers", "[{\"i\":2}]", "email")], tables))
        #expect(customers.mayMeet([("orders", "[{\"i\":9}]", "customer_id")], tables))
        // A batch that changes a key is not bounded by the rows it names.
        #expect(batch([("orders", "[{\"i\":1}]", "id")]).mayMeet([("orders", "[{\"i\":3}]", nil)], tables))
    }
}
#endif
