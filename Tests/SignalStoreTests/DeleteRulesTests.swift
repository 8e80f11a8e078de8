import Foundation
import SignalStoreTesting
import Testing
@testable import SignalStore

/// `ON DELETE CASCADE`, `SET NULL` and `RESTRICT` hold for writers that leave foreign keys off:
/// the `sqlite3` shell and a plain C connection, as SQLite's defaults have them.
@Suite("Delete rules for every writer", .ownThread)
struct DeleteRulesTests {
    /// Three levels of cascade (customer → order → line), a SET NULL and a RESTRICT.
    static let migrations = [
        Migration(version: 1, name: "graph", sql: """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE CASCADE, note TEXT);
            CREATE TABLE lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders ON DELETE CASCADE, sku TEXT);
            CREATE TABLE reviews (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE SET NULL, body TEXT);
            CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE RESTRICT);
            """),
    ]

    private func seeded() throws -> TestStore {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("""
            INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
            INSERT INTO orders VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c');
            INSERT INTO lines VALUES (100, 10, 'x'), (101, 10, 'y'), (110, 11, 'z'), (200, 20, 'w');
            INSERT INTO reviews VALUES (1000, 1, 'good'), (2000, 2, 'fine');
            """)
        return store
    }

    private func count(_ store: TestStore, _ sql: String) throws -> Int64 {
        try rows(store.store, sql).first?.first?.integerValue ?? -1
    }

    @Test func aShellDeleteCascadesThreeLevelsAndSetsNullAndIsJournaledInOneCommit() async throws {
        let store = try seeded()
        let before = try store.lastChangeSeq
        // The referencing rows first, deepest first, then the customer, as SQLite's own
        // actions order them.
        try await store.expectChanges([
            .update("reviews", id: 1000, "customer_id", from: 1, to: SQLiteValue.null),
            .delete("lines", id: 100), .delete("lines", id: 101), .delete("orders", id: 10),
            .delete("lines", id: 110), .delete("orders", id: 11),
            .delete("customers", id: 1),
        ]) {
            try store.sqlite3("DELETE FROM customers WHERE id = 1")
        }
        #expect(try count(store, "SELECT count(*) FROM orders") == 1)
        #expect(try count(store, "SELECT count(*) FROM lines") == 1)
        #expect(try rows(store.store, "SELECT customer_id FROM reviews ORDER BY id") == [[.null], [.integer(2)]])
        #expect(try rows(store.store, "PRAGMA foreign_key_check").isEmpty, "nothing dangles")
        #expect(try store.store.journalEntries(after: before).count == 7)
    }

    @Test func aPlainConnectionWithForeignKeysOffCascadesToo() throws {
        let store = try seeded()
        let foreign = try store.foreignConnection()
        try foreign.execute("DELETE FROM customers WHERE id = 2")
        #expect(try count(store, "SELECT count(*) FROM orders WHERE customer_id = 2") == 0)
        #expect(try count(store, "SELECT count(*) FROM lines WHERE id = 200") == 0)
        #expect(try rows(store.store, "SELECT customer_id FROM reviews WHERE id = 2000") == [[.null]])
    }

    @Test func restrictRefusesTheShellsDeleteWithAMessageAndChangesNothing() throws {
        let store = try seeded()
        try store.execute("INSERT INTO invoices VALUES (7, 2)")
        let before = try store.lastChangeSeq
        let error = #expect(throws: TestStoreError.self) { try store.sqlite3("DELETE FROM customers WHERE id = 2") }
        #expect(error?.description.contains("cannot delete this row of customers: rows of invoices refer to it (invoices.customer_id ON DELETE RESTRICT); delete those rows or point them elsewhere first") == true, "\(String(describing: error))")
        #expect(try count(store, "SELECT count(*) FROM customers WHERE id = 2") == 1)
        #expect(try count(store, "SELECT count(*) FROM orders WHERE customer_id = 2") == 1, "nothing cascaded")
        #expect(try store.lastChangeSeq == before, "nothing was journaled")
        // The store's own delete (foreign keys on) gets the same message.
        #expect(throws: StoreError.self) { try store.execute("DELETE FROM customers WHERE id = 2") }
        #expect(try count(store, "SELECT count(*) FROM customers WHERE id = 2") == 1)
    }

    @Test func revertPutsACascadeBackTogether() async throws {
        let store = try seeded()
        let mark = try store.lastChangeSeq
        try store.sqlite3("DELETE FROM customers WHERE id = 1")
        await store.settle()
        try store.store.revert(after: mark)
        #expect(try count(store, "SELECT count(*) FROM orders") == 3)
        #expect(try count(store, "SELECT count(*) FROM lines") == 4)
        #expect(try rows(store.store, "SELECT customer_id FROM reviews ORDER BY id") == [[.integer(1)], [.integer(2)]])
        #expect(try rows(store.store, "PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aTableRebuildMigrationOfAReferencingTableWorksAndTheRulesHoldAfter() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("rebuild.sqlite")
        do {
            let store = try Store(path: path, migrations: Self.migrations)
            _ = try store.execute("INSERT INTO customers VALUES (1, 'Ada'); INSERT INTO orders VALUES (10, 1, 'a'); INSERT INTO lines VALUES (100, 10, 'x')")
            store.close()
        }
        // SQLite's 12-step procedure, on the table the customers' trigger names.
        let rebuild = Migration(version: 2, name: "rebuild_orders", sql: """
            PRAGMA foreign_keys = OFF;
            CREATE TABLE new_orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (id) ON DELETE CASCADE, note TEXT, total REAL NOT NULL DEFAULT 0);
            INSERT INTO new_orders (id, customer_id, note) SELECT id, customer_id, note FROM orders;
            DROP TABLE orders;
            ALTER TABLE new_orders RENAME TO orders;
            """)
        let store = try Store(path: path, migrations: Self.migrations + [rebuild])
        defer { store.close() }
        #expect(try rows(store, "SELECT id, total FROM orders") == [[.integer(10), .real(0)]])
        try sqlite3(path, "DELETE FROM customers WHERE id = 1")
        #expect(try rows(store, "SELECT count(*) FROM orders") == [[.integer(0)]])
        #expect(try rows(store, "SELECT count(*) FROM lines") == [[.integer(0)]])
    }
}
