import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

/// Migrations that add, drop and rename columns and rebuild, rename and drop tables, with the
/// journal replaying across them; tables adopted or created by other writers.
@Suite("Schema evolution", .ownThread)
struct SchemaEvolutionTests {
    /// Opens a file store at the package migrations with some rows, then applies `migration` as
    /// version 3 and checks that replaying the journal (migrations at their recorded seqs)
    /// rebuilds every table, before and after more writes.
    private func migrate(_ migration: String, then writes: [String] = []) throws -> Store {
        let directory = TemporaryDirectory()
        let path = directory.path("evolve.sqlite")
        let seeded = try Store(path: path, migrations: packageMigrationList)
        try seeded.execute("""
            INSERT INTO customers (id, name, email) VALUES (1, 'ann', 'a@x'), (2, 'bob', 'b@x');
            INSERT INTO orders (id, purchase_num, status, customer_id, updated_at) VALUES (1, 1, 'open', 1, 5.0), (2, 2, 'paid', 2, 6.0);
            UPDATE orders SET status = 'shipped' WHERE id = 1;
            """)
        seeded.close()
        let migrations = packageMigrationList + [Migration(version: 3, name: "evolve", sql: migration)]
        let store = try Store(path: path, migrations: migrations)
        try JournalReplay.expectEqual(store, try JournalReplay.replay(store, migrations: migrations))
        for write in writes { try store.execute(write) }
        try JournalReplay.expectEqual(store, try JournalReplay.replay(store, migrations: migrations))
        #expect(try store.appliedMigrations.last?.afterSeq == 5, "migration 3 ran after the 5 entries written before it")
        withExtendedLifetime(directory) {}
        return store
    }

    @Test func dropColumn() throws {
        let store = try migrate("ALTER TABLE orders DROP COLUMN updated_at;", then: [
            "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'open')",
            "UPDATE orders SET purchase_num = 7 WHERE id = 3",
        ])
        let last = try store.journalEntries(after: 0).suffix(2)
        #expect(last.first?.row?.keys.contains("updated_at") == false)
        #expect(last.last?.column == "purchase_num")
    }

    @Test func renameColumn() throws {
        let store = try migrate("ALTER TABLE orders RENAME COLUMN note TO remark;", then: ["UPDATE orders SET remark = 'rush' WHERE id = 2"])
        #expect(try store.journalEntries(after: 0).last?.column == "remark")
    }

    @Test func renameTable() throws {
        let store = try migrate("ALTER TABLE customers RENAME TO clients;", then: [
            "INSERT INTO clients (id, name) VALUES (3, 'cy')", "DELETE FROM clients WHERE id = 3",
        ])
        #expect(try store.journalEntries(after: 0).suffix(2).map(\.table) == ["clients", "clients"])
        #expect(try rows(store, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%:customers:%'") == [[.integer(0)]])
    }

    @Test func twelveStepRebuildOfATableThatForeignKeysPointAt() throws {
        let store = try migrate("""
            CREATE TABLE customers_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, vip INTEGER NOT NULL DEFAULT 0);
            INSERT INTO customers_new (id, name, email) SELECT id, name, email FROM customers;
            DROP TABLE customers;
            ALTER TABLE customers_new RENAME TO customers;
            """, then: ["UPDATE customers SET vip = 1 WHERE id = 2", "DELETE FROM customers WHERE id = 1"])
        // Before the fix, DROP TABLE fired ON DELETE SET NULL: every order lost its customer.
        #expect(try rows(store, "SELECT id, customer_id FROM orders ORDER BY id") == [[.integer(1), .null], [.integer(2), .integer(2)]])
        let entries = try store.journalEntries(after: 5)
        #expect(entries.map(\.operation) == [.update, .update, .delete], "the rebuild itself journals nothing; the later writes do (the delete sets order 1's customer to NULL)")
        #expect(entries.first?.column == "vip")
        #expect(try rows(store, "PRAGMA foreign_key_check") == [])
    }

    @Test func dropTable() throws {
        let store = try migrate("DROP TABLE orders; DROP INDEX IF EXISTS orders_by_customer;", then: ["INSERT INTO customers (id, name) VALUES (9, 'z')"])
        #expect(try rows(store, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'orders'") == [[.integer(0)]])
    }

    @Test func aMigrationThatBreaksAForeignKeyFailsNamingTableAndRowAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("fk.sqlite")
        let seeded = try Store(path: path, migrations: packageMigrationList)
        try seeded.execute("INSERT INTO customers (id, name) VALUES (1, 'ann'); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (7, 1, 'open', 1)")
        seeded.close()
        let bytes = fileBytes(path)
        let migrations = packageMigrationList + [Migration(version: 3, name: "orphan", sql: "PRAGMA foreign_keys = ON; DELETE FROM customers WHERE id = 1;")]
        var failure: MigrationError?
        do { _ = try Store(path: path, migrations: migrations) } catch { if case .migration(let error) = error { failure = error } }
        #expect(failure?.kind == .foreignKeyViolation)
        #expect(failure?.description == "migration 3 (orphan) leaves row 7 of orders referring to a row of customers that does not exist — the migration was rolled back; make it keep, update or delete the referring rows, and run again")
        #expect(fileBytes(path) == bytes)
    }

    @Test func aTableAndAColumnAddedByAnotherProcessAreCapturedWithoutAReopen() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("live.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        let feed = store.changes().record()
        try sqlite3(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'early'); ALTER TABLE orders ADD COLUMN priority INTEGER;")
        // The shell commits each statement on its own, and a store can see the new table
        // before the new column: writes to the column count once the store has seen it (what
        // the change feed article asks of schema changes outside migrations).
        await store.settle()
        #expect(feed.waitForEvents(count: 1), "the early row is journaled when capture starts")
        try sqlite3(path, "INSERT INTO notes VALUES (2, 'later'); INSERT INTO orders (id, purchase_num, status, priority) VALUES (1, 1, 'open', 3); UPDATE orders SET priority = 4;")
        #expect(feed.waitForEvents(count: 4))
        try #require(feed.values.count == 4, "\(feed.values)")
        #expect(feed.values.map(\.table) == ["notes", "notes", "orders", "orders"])
        #expect(feed.values[2].row?["priority"] == .integer(3))
        #expect(feed.values[3].column == "priority")
        try JournalReplay.expectEqual(store, try JournalReplay.replayOntoCurrentSchema(store))
        store.close()
    }

    @Test func aDatabaseMadeByThePreviousVersionIsUpgradedWithoutJournalingItsRowsAgain() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let current = try Store(path: path, migrations: packageMigrations)
        try current.execute("INSERT INTO customers (id, name, email) VALUES (1, 'a', 'a@x'); INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        current.close()
        // As the previous version left it: no staging table, no after_seq, triggers without
        // eviction staging (only the plain insert trigger kept, in its old form).
        let old = try Connection(path: path)
        let triggers = try old.statement("SELECT name FROM sqlite_master WHERE type = 'trigger'").rows()
        for case .text(let name) in triggers.map({ $0[0] }) { try old.execute("DROP TRIGGER \(quotedIdentifier(name))") }
        try old.execute("""
            DROP TABLE _signalstore_evictions;
            ALTER TABLE _signalstore_migrations DROP COLUMN after_seq;
            CREATE TRIGGER "_signalstore:customers:insert" AFTER INSERT ON customers FOR EACH ROW BEGIN
              INSERT INTO _signalstore_changes (table_name, row_id, operation, column_name, old_value, new_value, timestamp)
              VALUES ('customers', NEW.rowid, 'insert', NULL, NULL, json_object('id', NEW.id), 0); END;
            CREATE TRIGGER "_signalstore:orders:insert" AFTER INSERT ON orders FOR EACH ROW BEGIN
              INSERT INTO _signalstore_changes (table_name, row_id, operation, column_name, old_value, new_value, timestamp)
              VALUES ('orders', NEW.rowid, 'insert', NULL, NULL, json_object('id', NEW.id), 0); END;
            """)
        let store = try Store(path: path, migrations: packageMigrations)
        #expect(try store.journalEntries(after: 0).count == 2, "tables captured before are not snapshotted again")
        #expect(try store.appliedMigrations.map(\.afterSeq) == [nil, nil])
        try sqlite3(path, "INSERT OR REPLACE INTO customers (id, name, email) VALUES (2, 'b', 'a@x')")
        await store.settle()
        #expect(try store.journalEntries(after: 2).count == 2)
        #expect(try store.journalEntries(after: 2).map(\.operation) == [.delete, .insert], "the upgraded triggers journal evictions")
        store.close()
    }

    @Test func aTableCreatedThroughExecuteIsCapturedInTheSameTransaction() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'a')")
        try store.execute("UPDATE notes SET body = 'b'")
        #expect(try store.journalEntries(after: 0).map(\.operation) == [.insert, .update])
    }

    @Test func adoptingAPlainDatabaseWhoseTablesClashLeavesItsBytesUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("plain.sqlite")
        try sqlite3(path, "CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders VALUES (1, 9.5);")
        let bytes = fileBytes(path)
        #expect(throws: StoreError.self) { _ = try Store(path: path, migrations: packageMigrations) }
        #expect(fileBytes(path) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func adoptingAPlainDatabaseBaselinesItsTables() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("plain.sqlite")
        try sqlite3(path, "CREATE TABLE legacy (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO legacy VALUES (1, 'x'), (2, 'y');")
        let store = try Store(path: path, migrations: packageMigrations)
        #expect(try store.journalEntries(after: 0).map { "\($0.operation) \($0.table)[\($0.rowID)]" } == ["insert legacy[1]", "insert legacy[2]"])
        #expect(try store.appliedMigrations.map(\.afterSeq) == [2, 2])
        #expect(try rows(store, "PRAGMA journal_mode") == [[.text("wal")]])
        store.close()
    }

    @Test("a SIGKILL during a migration leaves the old schema or the new one, each with working capture")
    func aKillDuringAMigrationLeavesOldOrNewWithCapture() throws {
        let heavy = """
            CREATE TABLE big AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT i, 'row ' || i AS label FROM n;
            ALTER TABLE orders DROP COLUMN updated_at;
            """
        var outcomes: Set<String> = []
        for attempt in 0..<8 {
            let directory = TemporaryDirectory()
            let path = directory.path("kill.sqlite")
            let seeded = try Store(path: path, migrations: packageMigrations)
            try seeded.execute("INSERT INTO orders (id, purchase_num, status, updated_at) VALUES (1, 1, 'open', 2.0)")
            seeded.close()
            let folder = directory.migrations([
                "0001_create_orders.sql": try String(contentsOf: packageMigrations.appendingPathComponent("0001_create_orders.sql"), encoding: .utf8),
                "0002_create_customers.sql": try String(contentsOf: packageMigrations.appendingPathComponent("0002_create_customers.sql"), encoding: .utf8),
                "0003_heavy.sql": heavy,
            ])
            let child = try ChildProcess(helperExecutable, ["migrate", path, folder.path])
            #expect(child.output.wait(timeout: 30) { $0.contains("opening") })
            usleep(UInt32(attempt * 40_000))
            child.send(SIGKILL)
            _ = child.waitForExit()
            // A foreign writer (the sqlite3 shell) writes to whichever schema is there.
            let write = try run(sqlite3Path(), [path, ".timeout 5000", "UPDATE orders SET purchase_num = 5 WHERE id = 1; SELECT count(*) FROM _signalstore_migrations;"])
            #expect(write.status == 0, "\(write.error)")
            outcomes.insert(write.output.trimmingCharacters(in: .whitespacesAndNewlines) == "3" ? "new" : "old")
            let store = try Store(path: path, migrations: folder)
            #expect(try rows(store, "PRAGMA integrity_check") == [[.text("ok")]])
            #expect(try store.journalEntries(after: 0).last?.newValue == .integer(5), "the shell's write was captured")
            #expect(try rows(store, "SELECT count(*) FROM big") == [[.integer(200_000)]])
            store.close()
        }
        #expect(!outcomes.isEmpty)
    }
}
