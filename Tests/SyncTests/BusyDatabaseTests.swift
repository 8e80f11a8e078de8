#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: another writer's long lock makes sync wait, never stop", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct BusyDatabaseTests {
    /// A Python process that takes the write lock of `path` (`BEGIN IMMEDIATE`), says `locked`,
    /// and holds it until it gets `SIGUSR1`: the test releases it once it saw sync wait, so no
    /// clock decides whether sync tried while the lock was held.
    private func holdLock(_ path: String) throws -> ChildProcess {
        let script = """
            import signal, sqlite3, sys
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            signal.sigwait({signal.SIGUSR1})
            db.execute("COMMIT")
            """
        return try ChildProcess(URL(fileURLWithPath: ForeignTool.python3.path()), ["-c", script, path])
    }

    @Test("a replica whose file another writer locks says it waits, then applies what it missed; it never fails")
    func aLongLockIsWaitedOut() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a")
        // B's writes wait for the lock at most 0.2 s each, so the test sees the waiting soon.
        let bPath = folder.path("b.sqlite")
        let bStore = try Store(path: bPath, migrations: packageMigrations, pollInterval: .milliseconds(10), busyTimeout: .milliseconds(200))
        let b = SyncClient(store: bStore, url: try PostgresURL(url), pollInterval: .milliseconds(200))
        let statuses = b.status.signal.record()
        let syncA = taskOnOwnThread { try await a.client(url).run() }
        let syncB = taskOnOwnThread { try await b.run() }
        defer { syncA.cancel(); syncB.cancel() }
        #expect(await eventuallyAsync { statuses.values.last == .idle })

        let holder = try holdLock(bPath)
        #expect(holder.output.wait(timeout: 20) { $0.contains("locked") })
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'while locked')")
        let waited = await eventuallyAsync { statuses.values.contains { if case .waiting = $0 { true } else { false } } }
        #expect(waited, "\(statuses.values)")
        holder.send(SIGUSR1)
        #expect(holder.waitForExit(timeout: 30) == 0)
        let arrived = try await eventuallyAsync {
            try bStore.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 1") } == .text("while locked")
        }
        #expect(arrived)
        #expect(!statuses.values.contains { if case .failed = $0 { true } else { false } }, "\(statuses.values)")
        let waiting = statuses.values.first { if case .waiting = $0 { true } else { false } }
        #expect(waiting?.description.contains("another writer holds the database's write lock") == true, "\(waiting?.description ?? "")")
    }
}
#endif
