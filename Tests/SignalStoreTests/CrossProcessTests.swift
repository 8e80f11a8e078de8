import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

/// Other processes write; this store's feed sees exactly their changes.
@Suite("Cross-process capture", .ownThread)
struct CrossProcessTests {
    @Test(.enabled(if: sqlite3Shell != nil, "needs the sqlite3 shell"))
    func theSQLite3ShellsChangesReachTheFeed() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        let recorder = store.changes(since: 0).record()
        let result = try run(sqlite3Shell!, [path, """
            INSERT INTO orders (id, purchase_num, status) VALUES (5, 2, 'open');
            UPDATE orders SET status = 'paid' WHERE id = 5;
            DELETE FROM orders;
            """])
        #expect(result.status == 0, "sqlite3 failed: \(result.error)")
        #expect(await recorder.events(count: 3))
        let changes = recorder.values
        #expect(changes.map(\.operation) == [.insert, .update, .delete])
        #expect(changes[1].column == "status")
        #expect(changes[1].newValue == .text("paid"))
        #expect(changes.allSatisfy { $0.rowID == 5 })
        store.close()
    }

    @Test func anotherStoreProcessesChangesReachTheFeed() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        let recorder = store.changes().record()
        let insert = try run(helperExecutable.path, ["write", path, packageMigrations.path, "INSERT INTO orders (id, purchase_num, status) VALUES (?, ?, 'open')", "7", "4"])
        #expect(insert.status == 0, "helper failed: \(insert.error)")
        let update = try run(helperExecutable.path, ["write", path, packageMigrations.path, "UPDATE orders SET purchase_num = ? WHERE id = ?", "8", "7"])
        #expect(update.status == 0, "helper failed: \(update.error)")
        #expect(update.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        #expect(await recorder.events(count: 2))
        #expect(recorder.values.map(\.operation) == [.insert, .update])
        #expect(recorder.values.last?.oldValue == .integer(4))
        #expect(recorder.values.last?.newValue == .integer(8))
        // Nothing else arrives: exactly those changes.
        #expect(await !recorder.events(count: 3, timeout: .milliseconds(300)))
        store.close()
    }

    @Test func theStoreWritesWhileAnotherProcessHoldsTheFileOpen() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let other = try run(helperExecutable.path, ["write", path, packageMigrations.path, "UPDATE orders SET purchase_num = ? WHERE id = ?", "2", "1"])
        #expect(other.status == 0, "helper failed: \(other.error)")
        try store.execute("UPDATE orders SET purchase_num = 3 WHERE id = 1")
        #expect(try rows(store, "SELECT purchase_num FROM orders") == [[.integer(3)]])
        store.close()
    }
}
