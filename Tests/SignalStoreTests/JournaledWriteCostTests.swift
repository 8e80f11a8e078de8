import Foundation
import Testing
@testable import SignalStore

/// A journaled write builds no temporary table: the journal checks `operation` by comparisons
/// (an `IN` list made SQLite build a temporary index for every journaled row), and a journal
/// made by an earlier version is brought up to date when a store opens it, entries and all.
@Suite("What a journaled write costs", .ownThread)
struct JournaledWriteCostTests {

    private func declaration(_ path: String) throws -> String {
        try sqlite3(path, "SELECT sql FROM sqlite_schema WHERE name = '_signalstore_changes'")
    }

    /// The triggers of `sql`'s program (`""`: the statement itself) that open a temporary
    /// B-tree, by `EXPLAIN` on `connection`.
    private func temporaryTables(_ sql: String, _ connection: Connection) throws -> Set<String> {
        var program = "", opening: Set<String> = []
        for row in try connection.statement("EXPLAIN " + sql).rows() {
            let (opcode, p4) = (row[1].textValue ?? "", row[5].textValue ?? "")
            if opcode == "Init" { program = p4.hasPrefix("-- TRIGGER ") ? String(p4.dropFirst(11)) : "" }
            if opcode == "OpenEphemeral" { opening.insert(program) }
        }
        return opening
    }

    /// A temporary B-tree per journaled row cost about a quarter of a journaled insert's SQLite
    /// instructions: one for the operation check, on every connection, and on the store's own
    /// connection one for the `INSERT … SELECT` that journals evicted rows, which now runs in a
    /// trigger of its own only when a row was staged (the `REPLACE` tests show it still works).
    @Test func aJournaledWriteBuildsNoTemporaryTable() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let writes = [
            "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')",
            "UPDATE customers SET email = 'b@x' WHERE id = 1",
            "DELETE FROM orders WHERE id = 1",
        ]
        let store = try Store(path: path, migrations: packageMigrations)
        for write in writes {
            let own = try store.writeTransaction { connection in try temporaryTables(write, connection) }
            #expect(own.isSubset(of: ["_signalstore:orders:evict-insert", "_signalstore:customers:evict-update"]), "\(write)")
        }
        store.close()
        let other = try Connection(path: path)
        for write in writes { #expect(try temporaryTables(write, other).isEmpty, "\(write)") }
        // The two triggers allowed above run only while a row is staged.
        let staged = "EXISTS (SELECT 1 FROM _signalstore_evictions WHERE table_name = "
        for name in ["_signalstore:orders:evict-insert", "_signalstore:customers:evict-update"] {
            let sql = try other.scalar("SELECT sql FROM sqlite_schema WHERE name = ?", [.text(name)])?.textValue ?? ""
            let condition = sql.components(separatedBy: " BEGIN ")[0]
            #expect(condition.contains(" WHEN ") && condition.contains(staged), "\(name): \(sql)")
        }
        #expect(try declaration(path).contains(Journal.operationCheck))
    }

    /// A store's file as an earlier version left it: the journal declared with the `IN` list.
    private func legacyJournal(_ path: String) throws {
        let before = try Store(path: path, migrations: packageMigrations)
        try before.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open'), (2, 2, 'open')")
        try before.execute("DELETE FROM orders WHERE id = 2")
        before.close()
        let literal = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        _ = try sqlite3(path, """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(sql, \(literal(Journal.operationCheck)), \(literal(Journal.legacyOperationCheck))) WHERE name = '_signalstore_changes';
            PRAGMA schema_version = 1000;
            """)
        #expect(try declaration(path).contains(Journal.legacyOperationCheck))
    }

    @Test func aJournalMadeByAnEarlierVersionIsUpgradedInPlace() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try legacyJournal(path)

        let store = try Store(path: path, migrations: packageMigrations)
        let upgraded = try declaration(path)
        #expect(upgraded.contains(Journal.operationCheck))
        #expect(!upgraded.contains(Journal.legacyOperationCheck))
        #expect(try store.journalEntries(after: 0).map(\.seq) == [1, 2, 3])

        // Another writer meets the new declaration at once: its change is journaled after the
        // old entries, and the check still refuses what it always refused.
        let recorder = store.changes(since: 3).record()
        _ = try sqlite3(path, "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'open')")
        #expect(await recorder.events(count: 1))
        #expect(recorder.values.map(\.seq) == [4])
        let refused = try run(sqlite3Path(), [path, ".timeout 5000", "INSERT INTO _signalstore_changes (table_name, row_id, operation, timestamp) VALUES ('orders', 9, 'upsert', 0)"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("CHECK constraint failed"))
        #expect(try sqlite3(path, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        store.close()
    }

    /// Where the schema cannot be rewritten now (here another writer holds the lock past the
    /// busy timeout; defensive mode or an authorizer refuse it too), the journal keeps the legacy
    /// check, which accepts the same rows, and opening goes on.
    @Test func aJournalThatCannotBeUpgradedNowKeepsTheLegacyCheck() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try legacyJournal(path)
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let connection = try Connection(path: path, busyTimeout: .milliseconds(50))
        try Journal.upgradeOperationCheck(connection)
        try holder.execute("COMMIT")
        #expect(try declaration(path).contains(Journal.legacyOperationCheck))
        _ = try sqlite3(path, "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'open')")
        #expect(try connection.scalar("SELECT max(seq) FROM _signalstore_changes") == .integer(4))
    }
}
