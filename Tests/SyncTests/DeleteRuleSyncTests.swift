#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import SignalsTesting
import Testing

/// A cascade that the `sqlite3` shell (foreign keys off) sets off on one replica reaches the
/// others as the one commit it was.
@Suite("Sync: delete rules of a writer with foreign keys off", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct DeleteRuleSyncTests {
    static let migrations = [
        Migration(version: 1, name: "graph", sql: """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE CASCADE, note TEXT);
            CREATE TABLE lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders ON DELETE CASCADE, sku TEXT);
            CREATE TABLE reviews (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE SET NULL);
            """),
    ]

    private func count(_ replica: Replica, _ table: String) throws -> Int64 {
        try replica.store.readConnection { try $0.scalar("SELECT count(*) FROM \(identifier: table)")?.integerValue ?? -1 }
    }

    @Test func aShellCascadeSyncsAsOneCommit() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a", migrations: Self.migrations), b = try Replica(folder, "b", migrations: Self.migrations)
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, """
            INSERT INTO customers VALUES (1, 'Ann'), (2, 'Bea');
            INSERT INTO orders VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c');
            INSERT INTO lines VALUES (100, 10, 'x'), (110, 11, 'y'), (200, 20, 'z');
            INSERT INTO reviews VALUES (1000, 1);
            """)
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(try count(b, "lines") == 3, "\(syncB.conflicts.value.map(\.description))")

        let commits = b.store.changes().record()
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 1")
        try await syncA.syncOnce(); try await syncB.syncOnce()

        for replica in [a, b] {
            #expect(try count(replica, "customers") == 1 && count(replica, "orders") == 1 && count(replica, "lines") == 1, "\(replica.path)")
            #expect(try replica.store.readConnection { try $0.scalar("SELECT customer_id FROM reviews") } == .null)
        }
        #expect(syncA.conflicts.value.isEmpty && syncB.conflicts.value.isEmpty)
        #expect(commits.values.map(\.table).sorted() == ["customers", "lines", "lines", "orders", "orders", "reviews"], "B applied exactly the cascade")
        let late = try Replica(folder, "late", migrations: Self.migrations)
        try await late.client(url).syncOnce()
        #expect(try count(late, "orders") == 1 && count(late, "lines") == 1)
    }
}
#endif
