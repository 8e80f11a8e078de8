#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: migrations while sync runs", .enabled(if: TestServer.isEnabled, "needs PostgreSQL"), .ownThread)
struct MigrationUnderSyncTests {
    /// The example schema plus a column every replica gets in version 3.
    static let version3 = packageMigrationList + [
        Migration(version: 3, name: "priority", sql: "ALTER TABLE orders ADD COLUMN priority INTEGER"),
    ]

    private func value(_ replica: Replica, _ sql: String) throws -> SQLiteValue? {
        try replica.store.readConnection { try $0.scalar(sql) }
    }

    @Test("replicas that migrate under a running sync go on; one that is behind waits, says why, keeps uploading, and catches up once it migrates")
    func migratingUnderARunningSync() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b"), c = try Replica(folder, "c")
        let clients = try [a, b, c].map { try $0.client(url) }
        let statuses = clients.map { $0.status.signal.record() }
        let tasks = clients.map { client in taskOnOwnThread { try await client.run() } }
        defer { tasks.forEach { $0.cancel() } }
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'before')")
        #expect(try await eventuallyAsync { try [b, c].allSatisfy { try value($0, "SELECT status FROM orders WHERE id = 1") == .text("before") } })

        // A and B migrate, each by another Store on its file, while their sync clients run.
        for replica in [a, b] { try Store(path: replica.path, migrations: Self.version3).close() }
        try a.store.execute("INSERT INTO orders (id, purchase_num, status, priority) VALUES (2, 2, 'urgent', 9)")
        #expect(try await eventuallyAsync { try value(b, "SELECT priority FROM orders WHERE id = 2") == .integer(9) }, "\(statuses[1].values)")

        // C is still on version 2: it waits, naming the column, and its own writes still go up.
        let waiting = await eventuallyAsync {
            statuses[2].values.contains { status in
                if case .waiting(let error, _) = status { error.code == SyncError.schemaMismatch && error.column == "priority" } else { false }
            }
        }
        #expect(waiting, "\(statuses[2].values)")
        try c.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'from c')")
        #expect(try await eventuallyAsync { try value(a, "SELECT status FROM orders WHERE id = 3") == .text("from c") }, "C's upload stopped")

        // Once C migrates, it applies what it waited for, without a restart.
        try Store(path: c.path, migrations: Self.version3).close()
        #expect(try await eventuallyAsync { try value(c, "SELECT priority FROM orders WHERE id = 2") == .integer(9) }, "\(statuses[2].values)")
        for recorder in statuses {
            #expect(!recorder.values.contains { if case .failed = $0 { true } else { false } }, "\(recorder.values)")
        }
    }
}
#endif
