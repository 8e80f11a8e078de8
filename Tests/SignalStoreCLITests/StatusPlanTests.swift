import Foundation
import Testing

/// `status` runs `migrate`'s checks: it lists what `migrate` would apply, or says why it would
/// fail, and changes nothing.
@Suite(.ownThread) struct StatusPlanTests {
    private func migrationsCopy(in directory: TemporaryDirectory) throws -> URL {
        let folder = directory.url.appendingPathComponent("Migrations")
        try FileManager.default.copyItem(at: packageMigrations, to: folder)
        return folder
    }

    private func pendingLine(_ path: String, _ folder: URL) throws -> String? {
        try runBinary(["status", "--db", path, "--migrations", folder.path]).outputLines.first { $0.hasPrefix("pending") }
    }

    @Test func statusSaysWhatMigrateWouldDoOrWhyItWouldFail() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let folder = try migrationsCopy(in: directory)
        #expect(try pendingLine(path, folder) == "pending   none")
        let added = folder.appendingPathComponent("0003_add_tags.sql")
        try "CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT);".write(to: added, atomically: true, encoding: .utf8)
        #expect(try pendingLine(path, folder) == "pending   0003_add_tags.sql")
        try FileManager.default.removeItem(at: added)

        let before = fileBytes(path)
        let first = folder.appendingPathComponent("0001_create_orders.sql")
        try (try String(contentsOf: first, encoding: .utf8) + "\n-- edited\n").write(to: first, atomically: true, encoding: .utf8)
        #expect(try pendingLine(path, folder) == "pending   migrate would fail: 0001_create_orders.sql was changed after it was applied to this database; restore its original text and put the change in a new migration")
        let json = try #require(try parseJSON(try runBinary(["status", "--json", "--db", path, "--migrations", folder.path]).output) as? [String: Any])
        #expect(json["pending"] is NSNull)
        #expect((json["migrateWouldFail"] as? String)?.hasPrefix("0001_create_orders.sql was changed") == true)
        #expect(fileBytes(path) == before, "status changed the database")

        // A database newer than the files.
        try FileManager.default.removeItem(at: folder)
        let older = try migrationsCopy(in: directory)
        try FileManager.default.removeItem(at: older.appendingPathComponent("0002_create_customers.sql"))
        #expect(try pendingLine(path, older)?.hasPrefix("pending   migrate would fail: the database has migration 2") == true)
    }

    @Test func statusListsDanglingReferencesAWriterWithForeignKeysOffLeft() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let folder = try migrationsCopy(in: directory)
        func danglingLine() throws -> String? {
            try runBinary(["status", "--db", path, "--migrations", folder.path]).outputLines.first { $0.hasPrefix("dangling") }
        }
        #expect(try danglingLine() == "dangling  none")
        // The sqlite3 shell, foreign keys off, as such references are left.
        let shell = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (50, 1, 'x', 99), (51, 1, 'y', 98)"])
        #expect(shell.status == 0, "sqlite3 failed: \(shell.error)")
        #expect(try danglingLine() == "dangling  orders.customer_id → customers: 2 rows (rowids 50, 51) — point them at existing rows or delete them (signalstore set / delete)")
        let json = try #require(try parseJSON(try runBinary(["status", "--json", "--db", path, "--migrations", folder.path]).output) as? [String: Any])
        let dangling = try #require(json["dangling"] as? [[String: Any]])
        #expect(dangling.count == 1 && dangling[0]["table"] as? String == "orders" && dangling[0]["rows"] as? Int == 2)
    }
}
