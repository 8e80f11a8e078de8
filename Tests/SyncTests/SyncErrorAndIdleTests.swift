#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: typed errors, and a client that writes nothing when nothing moved", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct SyncErrorAndIdleTests {
    @Test("a wrong password is matchable as refused, with the server's SQLSTATE and address, never the password")
    func wrongPasswordIsTyped() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let url = try TestServer.freshURL()
        let client = try replica.client(TestServer.withPassword(url, "wrong-pass-4711"))
        do {
            try await client.syncOnce()
            Issue.record("a wrong password synced")
        } catch SyncError.refused {
            let error = try #require(client.status.value.error)
            #expect(error.sqlState == "28P01")
            #expect(error.server?.hasPrefix("127.0.0.1:") == true)
            #expect(!error.description.contains("wrong-pass-4711"))
        } catch {
            Issue.record("expected refused, got \(error)")
        }
    }

    @Test("a server that cannot be reached is matchable as unreachable and transient")
    func unreachableIsTyped() async throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let client = try replica.client(TestServer.unreachable(try TestServer.freshURL()))
        await #expect(throws: SyncError.self) { try await client.syncOnce() }
        let error = try #require(client.status.value.error)
        #expect(error.code == SyncError.unreachable)
        #expect(error.isTransient)
        #expect(error.server == "127.0.0.1:1")
    }

    @Test("a cancelled sync reports cancelled, never unreachable")
    func cancellationIsNotUnreachable() async throws {
        // A test process starved past the client's 8 s answer deadline (it was, once, under
        // Thread Sanitizer in a full run) sees the deadline's unreachable before it could
        // cancel; such an attempt tells nothing and is made again. An unreachable sooner fails.
        let answerDeadline = Duration.seconds(8)
        for _ in 1...3 {
            let folder = TemporaryDirectory()
            let silent = try SilentServer()
            let client = try silentClient(folder, silent)
            let statuses = client.status.signal.record()
            let started = ContinuousClock.now
            let once = Task { try await client.syncOnce() }
            // Cancelled while it waits for the silent server's answer.
            #expect(await eventuallyAsync { statuses.values.contains(.connecting) })
            once.cancel()
            let error = await failure(of: once)
            withExtendedLifetime(silent) {}
            if error?.code == SyncError.unreachable, ContinuousClock.now - started >= answerDeadline { continue }
            #expect(error?.code == SyncError.cancelled, "\(String(describing: error))")
            #expect(error?.isTransient == false)
            return
        }
        Issue.record("three attempts were starved past the answer deadline before they could cancel")
    }

    @Test("a sync started in a task that is already cancelled ends at once as cancelled (a cancellation before the deadline's continuation was stored was lost, and the client waited for the connect timeout)")
    func alreadyCancelled() async throws {
        let folder = TemporaryDirectory()
        let silent = try SilentServer()
        let client = try silentClient(folder, silent)
        let once = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.syncOnce()
        }
        let error = await failure(of: once)
        withExtendedLifetime(silent) {}
        // Before the fix it waited for the connect timeout and reported unreachable; no clock is
        // raced here: the kind of error tells.
        #expect(error?.code == SyncError.cancelled, "\(String(describing: error))")
    }

    /// The error a sync task ended with; records an issue if it synced.
    private func failure(of task: Task<SyncProgress, any Error>) async -> SyncError? {
        guard case .failure(let error) = await task.result else {
            Issue.record("a silent server synced")
            return nil
        }
        return error as? SyncError
    }

    @Test("a missing column names the table and column as typed fields")
    func schemaMismatchNamesTableAndColumn() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let newer = try Replica(folder, "newer")
        try newer.store.execute("ALTER TABLE orders ADD COLUMN priority INTEGER")
        try newer.store.execute("INSERT INTO orders (id, purchase_num, status, priority) VALUES (1, 1, 'new', 5)")
        try await newer.client(url, tables: ["orders"]).syncOnce()
        let older = try Replica(folder, "older")
        do {
            try await older.client(url, tables: ["orders"]).syncOnce()
            Issue.record("a replica without the column applied the batch")
        } catch let error as SyncError {
            #expect(error.code == SyncError.schemaMismatch, "\(error)")
            #expect(error.table == "orders")
            #expect(error.column == "priority")
        }
    }

    @Test("an idle replica writes nothing: no second pass after applying a download, no write when nothing moved")
    func idleReplicaWritesNothing() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a")
        let b = try Replica(folder, "b")
        let clientB = try b.client(url)
        let statusesB = clientB.status.signal.record()
        let syncA = taskOnOwnThread { try await a.client(url).run() }
        let syncB = taskOnOwnThread { try await clientB.run() }
        defer { syncA.cancel(); syncB.cancel() }
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        #expect(try await eventuallyAsync { try b.contents() == a.contents() })
        // Once B's client is idle with nothing behind, watch B's file: any commit by its sync
        // client (a self-rung pass, a cursor saved again) changes PRAGMA data_version as seen
        // from another connection. Watched for ten of B's passes (each client polls every
        // 200 ms), counted, not timed: a loaded machine only makes them come later.
        #expect(await eventuallyAsync { statusesB.values.last == .idle && clientB.progress.value.behind == 0 && clientB.progress.value.downloaded == 1 })
        let observer = try Connection(path: b.path, readOnly: true)
        let before = try observer.scalar("PRAGMA data_version")
        let passes = { statusesB.values.filter { $0 == .syncing }.count }
        let passesBefore = passes()
        #expect(await eventuallyAsync { passes() >= passesBefore + 10 && statusesB.values.last == .idle }, "\(statusesB.values.suffix(4))")
        let after = try observer.scalar("PRAGMA data_version")
        #expect(before == after, "B's sync client committed while nothing moved")
    }
}

/// A client of a new replica whose server takes the connection and never answers.
private func silentClient(_ folder: TemporaryDirectory, _ silent: SilentServer) throws -> SyncClient {
    var components = URLComponents(string: try TestServer.freshURL())!
    components.port = silent.port
    return try Replica(folder, "a").client(components.string!)
}

extension SyncStatus {
    /// The error of an offline or failed status.
    var error: SyncError? {
        switch self {
        case .offline(let error, _), .failed(let error): error
        default: nil
        }
    }
}
#endif
