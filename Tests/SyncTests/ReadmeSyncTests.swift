#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// The README's sync example and the "two terminals" walkthrough, as a user meets them.
@Suite("Sync: the README", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct ReadmeSyncTests {
    // The README's (and SyncClient's) example, as written.
    func keepInSync(_ store: Store) async throws {
        let sync = SyncClient(store: store, url: try PostgresURL("postgres://app:secret@db.example.com/app?sslmode=verify-full"))
        let printer = sync.status.signal.subscribe(onValue: { status in print("sync:", status) })
        defer { printer.dispose() }
        try await sync.run()   // until the task is cancelled, or an error retrying cannot fix
    }

    @Test("the app example compiles, and run() ends when its task is cancelled")
    func appExampleStopsWhenCancelled() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let task = Task { try await keepInSync(replica.store) }   // db.example.com does not resolve here: offline, retrying
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        try await task.value
    }

    @Test("two terminals: `signalstore sync` on two databases, a sqlite3 insert in one appears in the other's `signalstore watch`")
    func twoTerminals() throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        for path in [a, b] {
            #expect(try runProgram(signalstore, ["migrate", "--db", path, "--migrations", packageMigrations.path]).status == 0)
        }
        let environment = ProcessInfo.processInfo.environment.merging(["SIGNALSTORE_POSTGRES_URL": url]) { $1 }
        let syncs = try [a, b].map { try ChildProcess(signalstore, ["sync", "--db", $0], environment: environment) }
        let watch = try ChildProcess(signalstore, ["watch", "orders", "--db", b])
        defer {
            for process in syncs + [watch] { process.send(SIGINT); _ = process.waitForExit(timeout: 10) }
        }
        #expect(watch.error.wait(timeout: 10) { $0.contains("waiting for changes") })
        try sqlite3(a, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 3, 'new')")
        #expect(watch.output.wait(timeout: 20) { $0.contains("orders  1  insert") && $0.contains("status: new") }, "watch printed: \(watch.output.value)")
        #expect(!(syncs.map { $0.output.value + $0.error.value }.joined()).contains(TestServer.password) || TestServer.password.isEmpty)
    }
}
#endif
