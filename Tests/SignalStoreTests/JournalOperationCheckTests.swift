import Foundation
import Testing
@testable import SignalStore

/// The journal checks `operation` by comparisons (an `IN` list made SQLite build a temporary
/// index for every journaled row), and a journal made by an earlier version is brought up to
/// date when a store opens it, entries and all.
@Suite("The journal's operation check", .enabled(if: sqlite3Shell != nil, "needs the sqlite3 shell"), .ownThread)
struct JournalOperationCheckTests {
    private func shell(_ path: String, _ sql: String) throws -> String {
        let result = try run(sqlite3Shell!, [path, sql])
        #expect(result.status == 0, "sqlite3 failed: \(result.error)")
        return result.output
    }

    private func declaration(_ path: String) throws -> String {
        try shell(path, "SELECT sql FROM sqlite_schema WHERE name = '_signalstore_changes'")
    }

    @Test func aJournaledWriteBuildsNoTemporaryIndex() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let program = try shell(path, "EXPLAIN INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        #expect(program.contains("_signalstore_changes"), "the insert's program runs the capture trigger")
        #expect(!program.contains("OpenEphemeral"))
        #expect(try declaration(path).contains(Journal.operationCheck))
    }

    @Test func aJournalMadeByAnEarlierVersionIsUpgradedInPlace() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let before = try Store(path: path, migrations: packageMigrations)
        try before.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open'), (2, 2, 'open')")
        try before.execute("DELETE FROM orders WHERE id = 2")
        before.close()
        // The file as an earlier version left it: the same table, declared with the IN list.
        let literal = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        _ = try shell(path, """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(sql, \(literal(Journal.operationCheck)), \(literal(Journal.legacyOperationCheck))) WHERE name = '_signalstore_changes';
            PRAGMA schema_version = 1000;
            """)
        #expect(try declaration(path).contains(Journal.legacyOperationCheck))

        let store = try Store(path: path, migrations: packageMigrations)
        let upgraded = try declaration(path)
        #expect(upgraded.contains(Journal.operationCheck))
        #expect(!upgraded.contains(Journal.legacyOperationCheck))
        #expect(try store.journalEntries(after: 0).map(\.seq) == [1, 2, 3])

        // Another writer meets the new declaration at once: its change is journaled after the
        // old entries, and the check still refuses what it always refused.
        let recorder = store.changes(since: 3).record()
        _ = try shell(path, "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'open')")
        #expect(await recorder.events(count: 1))
        #expect(recorder.values.map(\.seq) == [4])
        let refused = try run(sqlite3Shell!, [path, "INSERT INTO _signalstore_changes (table_name, row_id, operation, timestamp) VALUES ('orders', 9, 'upsert', 0)"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("CHECK constraint failed"))
        #expect(try shell(path, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        store.close()
    }
}
