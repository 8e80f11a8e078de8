#if SIGNALSTORE_SYNC
import Foundation
@testable import SignalStoreSync
import Signals
import SignalStoreTestSupport
import Testing

@Suite("Sync: cut links and killed processes lose nothing and duplicate nothing", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct FailureTests {
    @Test("while PostgreSQL cannot be reached, status says offline, retries back off from 0.25 s to at most 2 s, and cancelling stops the client")
    func offlineBacksOff() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let sync = SyncClient(store: replica.store, url: try PostgresURL(TestServer.unreachable(try TestServer.freshURL())))
        let statuses = sync.status.signal.record()
        let retries = { statuses.values.compactMap { status -> Duration? in
            if case .offline(_, let retryIn) = status { retryIn } else { nil }
        } }
        let running = taskOnOwnThread { try await sync.run() }
        // Six waits take at most 0.25 + 0.5 + 1 + 2 + 2 + 2 s; the bound leaves room for a CI
        // machine whose two cores the rest of the suite keeps busy (20 s once missed the sixth).
        #expect(await eventuallyAsync(timeout: .seconds(60)) { retries().count >= 6 }, "\(statuses.values)")
        running.cancel()
        try await running.value
        // Each retry waits between half and all of a delay that doubles from 0.25 s up to 2 s
        // (the jitter keeps replicas that lost one server from coming back in step; the cap
        // brings sync back within 2 s of the server answering again).
        for (attempt, wait) in retries().prefix(6).enumerated() {
            let delay = min(Duration.milliseconds(250 << attempt), .seconds(2))
            #expect(wait >= delay / 2 && wait <= delay, "retry \(attempt + 1) waited \(wait)")
        }
        #expect(statuses.values.last == .stopped, "\(statuses.values)")
    }

    @Test("report 3: when the server drops every sync connection (as a restart does), both clients reconnect by themselves and the next write crosses, though they would not poll for an hour")
    func serverDroppedConnections() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let clients = try [a, b].map { SyncClient(store: $0.store, url: try PostgresURL(url), pollInterval: .seconds(3600)) }
        let statuses = clients.map { $0.status.signal.record() }
        let tasks = clients.map { client in taskOnOwnThread { try await client.run() } }
        defer { tasks.forEach { $0.cancel() } }
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'before')")
        #expect(try await eventuallyAsync { try b.contents() == a.contents() })
        #expect(await eventuallyAsync { statuses.allSatisfy { $0.values.last == .idle } })

        // The server ends both clients' connections (their last queries name the test's schema).
        let terminated = try ServerLogOracle(url: url).query(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%%s%'")
        #expect(terminated == ["2"])
        let start = ContinuousClock.now
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'after')")
        // Noticed at once, it takes about 0.25 s (the first reconnect's wait); a closed connection
        // noticed only by the round deadline took 8 s. The bound tells the two apart with room
        // for a loaded machine.
        #expect(try await eventuallyAsync(timeout: .seconds(5)) { try b.contents() == a.contents() }, "\(statuses[1].values)")
        print("report 3: a write crossed \(ContinuousClock.now - start) after the server dropped the connections")
        #expect(statuses[1].values.contains(.connecting), "B reconnected: \(statuses[1].values)")
        #expect(!statuses.contains { $0.values.contains { if case .failed = $0 { true } else { false } } })
    }

    @Test("an administrator's cancel of sync's statement (pg_cancel_backend, here of an upload slowed by a trigger on the log) is retried: sync reports offline, never stops, and the row arrives once the statement can finish")
    func cancelledStatementIsRetried() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let clients = try [a, b].map { try $0.client(url) }
        let statuses = clients.map { $0.status.signal.record() }
        let tasks = clients.map { client in taskOnOwnThread { try await client.run() } }
        defer { tasks.forEach { $0.cancel() } }
        #expect(await eventuallyAsync { statuses.allSatisfy { $0.values.last == .idle } })
        let oracle = ServerLogOracle(url: url)
        _ = try oracle.query("""
            CREATE FUNCTION %s.slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$;
            CREATE TRIGGER slow AFTER INSERT ON %s.log FOR EACH STATEMENT EXECUTE FUNCTION %s.slow()
            """)
        try b.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'cancelled once')")

        let cancel = "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%%s.append(%'"
        #expect(try await eventuallyAsync { try oracle.query(cancel) == ["1"] }, "B's upload was never seen waiting in the trigger")
        _ = try oracle.query("DROP TRIGGER slow ON %s.log")
        #expect(try await eventuallyAsync { try a.contents() == b.contents() && a.contents().count == 1 }, "\(statuses[1].values)")
        let offline = statuses[1].values.compactMap { status -> String? in
            if case .offline(let error, _) = status { error.message } else { nil }
        }
        #expect(offline.contains { $0.contains("cancelled a statement of sync") && $0.hasSuffix("sync retries") }, "\(statuses[1].values)")
        #expect(!statuses.contains { $0.values.contains { if case .failed = $0 { true } else { false } } }, "\(statuses[1].values)")
    }

    @Test("cancelling while the server has not answered yet stops the client without reporting offline")
    func cancellingWhileConnecting() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let silent = try SilentServer()
        let sync = SyncClient(store: replica.store, url: try PostgresURL("postgres://app:secret@127.0.0.1:\(silent.port)/app?sslmode=disable"))
        let statuses = sync.status.signal.record()
        defer { withExtendedLifetime(silent) {} }   // open until the end, not just until `port` is read
        let running = taskOnOwnThread { try await sync.run() }
        #expect(await eventuallyAsync { statuses.values.last == .connecting })
        try await Task.sleep(for: .milliseconds(200))   // the startup message is sent; no answer comes
        running.cancel()
        try await running.value
        // The only offline status a starved test process could see here is the connect deadline
        // (15 s); the one this test is about names the cancellation.
        let offline = statuses.values.filter { if case .offline = $0 { "\($0)".contains("cancelled") } else { false } }
        #expect(offline.isEmpty, "a cancellation was reported as a lost connection: \(offline)")
        #expect(statuses.values.last == .stopped, "\(statuses.values)")
    }

    @Test("20 SIGKILLs of sync processes while both replicas write: afterwards they are equal and hold every committed write once")
    func killedSyncProcesses() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try [Replica(folder, "a"), Replica(folder, "b")]
        var random = SeededGenerator(seed: 14)
        var committed: [Int64] = []
        for kill in 0..<20 {
            let replica = replicas[kill % 2]
            let sync = try ChildProcess(signalstore, ["sync", "--json", "--postgres", url, "--db", replica.path])
            // Writes go on while the process uploads and applies; the kill lands at a random point.
            let deadline = ContinuousClock.now + .milliseconds(Int.random(in: 30...400, using: &random))
            var next = Int64(kill * 1_000)
            while ContinuousClock.now < deadline {
                next += 1
                let writer = replicas[Int.random(in: 0...1, using: &random)]
                try writer.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, 1, 'new')", arguments: [.integer(next)])
                committed.append(next)
                if let old = committed.randomElement(using: &random) {
                    try writer.store.execute("UPDATE orders SET purchase_num = purchase_num + 1 WHERE id = ?", arguments: [.integer(old)])
                }
                try await Task.sleep(for: .milliseconds(3))
            }
            sync.send(SIGKILL)
            _ = sync.waitForExit(timeout: 10)
        }
        try await settle(replicas, url)
        let ids = try replicas.map { replica in
            try replica.store.readConnection { connection in
                try connection.statement("SELECT id FROM orders ORDER BY id").rows().map { $0[0] }
            }
        }
        #expect(ids[0] == committed.sorted().map { .integer($0) }, "a replica lost or invented rows")
        #expect(ids[1] == ids[0])
        #expect(try replicas[0].contents() == replicas[1].contents())
        #expect(try ServerLogOracle(url: url).duplicateEntries().isEmpty, "an entry was stored twice")
    }

    @Test("sync's sessions ask the server to check every second during a statement that the client is still there: a session whose link was cut while it waited for a lock cannot keep the log's lock from other replicas")
    func sessionsWhoseClientIsGoneAreEnded() async throws {
        let url = try PostgresURL(try TestServer.freshURL())
        let log = try await ServerLog.connect(url)
        defer { Task { await log.close() } }
        var settings: [String] = []
        for try await value in try await log.connection.query("SELECT current_setting('client_connection_check_interval')", logger: log.logger).decode(String.self) {
            settings.append(value)
        }
        #expect(settings == ["1s"])
    }

    @Test("a session the server ends inside a transaction, by an administrator or at its idle-in-transaction timeout, fails the transaction at once with a one-line error: the client never waits on the closed connection (postgres-nio leaves a query sent on it suspended for good, and a ROLLBACK was one)", arguments: [true, false])
    func aSessionEndedInsideATransactionFailsAtOnce(terminated: Bool) async throws {
        let url = try PostgresURL(try TestServer.freshURL())
        let log = try await ServerLog.connect(url)
        defer { Task { await log.close() } }
        let outcome = Locked<String?>(nil)
        // Left behind, not awaited, if it waits for good: the test fails on the wait below.
        Task {
            do {
                try await log.connection.transactionUnlessClosed(logger: log.logger) { connection in
                    if terminated {
                        try await connection.queryUnlessClosed("SELECT pg_terminate_backend(pg_backend_pid())", logger: log.logger)
                    } else {
                        try await connection.queryUnlessClosed("SELECT set_config('idle_in_transaction_session_timeout', '200ms', true)", logger: log.logger)
                        // The client's own work, until the server has ended the idle session.
                        _ = await eventuallyAsync(timeout: .seconds(20)) { log.connection.isClosed }
                    }
                    try await connection.queryUnlessClosed("SELECT 1", logger: log.logger)
                }
                outcome.withLock { $0 = "committed" }
            } catch {
                let described = ServerErrors.describe(error, url: url, while: "uploading to")
                outcome.withLock { $0 = "\(described.code): \(described.message)" }
            }
        }
        #expect(await eventuallyAsync(timeout: .seconds(20)) { outcome.withLock { $0 } != nil }, "the transaction still waits after 20 s")
        let said = try #require(outcome.withLock { $0 })
        #expect(said.hasPrefix("unreachable: "), "\(said)")
        #expect(!said.contains("\n") && !said.contains(url.password ?? "\u{0}"), "\(said)")
    }

    @Test("a replica that reconnects with changes staged to upload goes offline and retries when the server stops answering its read of refusals, then uploads")
    func reconnectingReadsRefusalsWithADeadline() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replica = try Replica(folder, "a")
        let sync = try replica.client(url)
        try await sync.syncOnce()   // the server's tables exist
        try replica.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'waiting')")
        // A session holds the counter row, so an upload waits, and the refusals table, which a
        // replica with staged changes reads as it connects: the server answers that read
        // nothing, as a link cut in the middle of the query may leave it.
        let schema = try #require(url.components(separatedBy: "schema=").last)
        let transaction = "BEGIN; SELECT next FROM \(schema).counter WHERE id = 1 FOR UPDATE; LOCK TABLE \(schema).refusals IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;"
        let holder = try ChildProcess(URL(fileURLWithPath: ForeignTool.psql.path()), [url.components(separatedBy: "?").first! + "?sslmode=disable", "-v", "ON_ERROR_STOP=1", "-c", transaction])
        func release() throws { _ = try ScopeTests.runPsql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = '\(transaction)'") }
        defer { try? release(); holder.send(SIGKILL) }
        #expect(try await eventuallyAsync(timeout: .seconds(10)) {
            let held = try ScopeTests.runPsql(url, "SELECT count(*) FROM pg_locks WHERE relation = '\(schema).refusals'::regclass AND mode = 'AccessExclusiveLock' AND granted").output
            return held.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        })
        // A first run stages the change and waits on the counter; stopped there, as a crash
        // or a cut would, it leaves the change staged and not uploaded.
        let first = taskOnOwnThread { try await sync.run() }
        #expect(try await eventuallyAsync(timeout: .seconds(10)) {
            try replica.store.readConnection { try Outbox.pending(after: 0, limit: 1, $0) }.count == 1
        })
        first.cancel()
        try await first.value

        let offline = Locked<[String]>([])
        let statuses = sync.status.signal.record()
        let watcher = sync.status.signal.subscribe(onValue: { status in
            if case .offline(let error, _) = status { offline.withLock { $0.append(error.message) } }
        })
        defer { watcher.dispose() }
        let running = taskOnOwnThread { try await sync.run() }
        defer { running.cancel() }
        let reconnectTimedOut = { offline.withLock { $0 }.contains { $0.contains("did not answer") && $0.contains("while connecting") } }
        #expect(await eventuallyAsync(timeout: .seconds(20)) { reconnectTimedOut() }, "the reconnect waited on the server without a deadline: \(statuses.values)")
        try release()   // the session ends, and its locks with it
        #expect(await eventuallyAsync(timeout: .seconds(20)) { sync.progress.value.uploaded == 1 }, "\(sync.progress.value)")
    }

    @Test("20 cuts of the link to PostgreSQL (a TCP proxy closes every connection) while both replicas write and sync: they converge")
    func cutLinks() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let proxy = try TCPProxy(to: url)
        defer { proxy.stop() }
        let replicas = try [Replica(folder, "a"), Replica(folder, "b")]
        let syncs = try replicas.map { replica in
            try ChildProcess(signalstore, ["sync", "--json", "--postgres", proxy.url, "--db", replica.path])
        }
        var stopped = false
        func stop() {
            guard !stopped else { return }
            stopped = true
            for sync in syncs { sync.send(SIGINT); _ = sync.waitForExit(timeout: 10) }
        }
        defer { stop() }

        var random = SeededGenerator(seed: 41)
        var next: Int64 = 0
        for _ in 0..<20 {
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                next += 1
                try replicas[Int(next % 2)].store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, 1, 'new')", arguments: [.integer(next)])
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...40, using: &random)))
            }
            proxy.cut()
        }
        let converged = try await eventuallyAsync(timeout: .seconds(60)) {
            let contents = try replicas.map { try $0.contents() }
            return contents[0].count == Int(next) && contents[1] == contents[0]
        }
        let counts = try replicas.map { try $0.contents().count }
        // If not: what each of the test's sessions on the server was doing (the log's lock
        // held by a session nobody answers for would keep every upload waiting).
        let sessions = converged ? [] : try ServerLogOracle(url: url).query("""
            SELECT pid, state, coalesce(wait_event_type, '') || ':' || coalesce(wait_event, ''), round(extract(epoch FROM now() - xact_start)),
                   left(regexp_replace(query, '\\s+', ' ', 'g'), 120)
            FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%%s%'
            """)
        #expect(converged, "after the cuts: \(counts) rows of \(next); sync said: \(syncs.map { String(($0.output.value + $0.error.value).suffix(600)) }); sessions: \(sessions)")
        stop()
        let offline = syncs.map { $0.output.value.components(separatedBy: "\"offline\"").count - 1 }.reduce(0, +)
        #expect(offline > 0, "no sync process noticed a cut link: \(syncs.map { $0.output.value + $0.error.value }) proxy: \(proxy.process.error.value)")
        #expect(try ServerLogOracle(url: url).duplicateEntries().isEmpty)
        for sync in syncs { #expect(TestServer.password.isEmpty || !(sync.output.value + sync.error.value).contains(TestServer.password)) }
    }
}

extension ServerLogOracle {
    /// Inserts of one row from one origin stored more than once: a retried upload that was not
    /// idempotent.
    func duplicateEntries() throws -> [String] {
        try query("SELECT origin || ' ' || row_key FROM %s.log WHERE op = 'insert' GROUP BY origin, row_key HAVING count(*) > 1")
    }
}
#endif
