import Foundation
import Testing
@testable import SignalStore

@Suite("Migrations")
struct MigrationTests {
    private func migrationError(_ body: () throws -> Void) -> MigrationError? {
        do {
            try body()
        } catch StoreError.migration(let error) {
            return error
        } catch let error as MigrationError {
            return error
        } catch {
            Issue.record("expected a MigrationError, got \(error)")
        }
        return nil
    }

    @Test func appliesInOrderAndRecordsEachMigration() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("db.sqlite"), migrations: packageMigrations)
        let recorded = try rows(store, "SELECT version, name, length(checksum), applied_at > 0 FROM _signalstore_migrations ORDER BY version")
        #expect(recorded == [
            [.integer(1), .text("create_orders"), .integer(16), .integer(1)],
            [.integer(2), .text("create_customers"), .integer(16), .integer(1)],
        ])
        let columns = try rows(store, "SELECT name FROM pragma_table_info('orders')").map { $0[0] }
        #expect(columns.contains(.text("customer_id")))
    }

    @Test func reopeningDoesNotReapply() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let store = try Store(path: path, migrations: packageMigrations)
        #expect(try rows(store, "SELECT count(*) FROM _signalstore_migrations") == [[.integer(2)]])
    }

    @Test func migrationsInCode() throws {
        let store = try Store.inMemory(migrations: [
            Migration(version: 1, name: "a", sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)"),
            Migration(version: 2, name: "b", sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)"),
        ])
        #expect(try rows(store, "SELECT count(*) FROM sqlite_master WHERE name IN ('a', 'b')") == [[.integer(2)]])
    }

    @Test func anEditedAppliedMigrationNamesTheFile() throws {
        let directory = TemporaryDirectory()
        let folder = directory.migrations(["0001_create_a.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY);"])
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: folder).close()
        _ = directory.migrations(["0001_create_a.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY, extra TEXT);"])
        let error = migrationError { _ = try Store(path: path, migrations: folder) }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.file == "0001_create_a.sql")
        #expect(error?.message.contains("new migration") == true)
    }

    @Test func aGapNamesTheFileAfterIt() {
        let directory = TemporaryDirectory()
        let folder = directory.migrations([
            "0001_a.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY);",
            "0003_c.sql": "CREATE TABLE c (id INTEGER PRIMARY KEY);",
        ])
        let error = migrationError { _ = try Store.inMemory(migrations: folder) }
        #expect(error?.kind == .gap)
        #expect(error?.file == "0003_c.sql")
        #expect(error?.message.contains("version 2 is missing") == true)
    }

    @Test func aDuplicateNumberNamesBothFiles() {
        let directory = TemporaryDirectory()
        let folder = directory.migrations([
            "0001_a.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY);",
            "0001_b.sql": "CREATE TABLE b (id INTEGER PRIMARY KEY);",
        ])
        let error = migrationError { _ = try Store.inMemory(migrations: folder) }
        #expect(error?.kind == .duplicateVersion)
        #expect(error?.message.contains("0001_a.sql") == true)
        #expect(error?.message.contains("0001_b.sql") == true)
    }

    @Test func aDatabaseNewerThanTheFilesIsAnError() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let older = directory.migrations(["0001_create_orders.sql": try String(contentsOf: packageMigrations.appendingPathComponent("0001_create_orders.sql"), encoding: .utf8)], folder: "Old")
        let error = migrationError { _ = try Store(path: path, migrations: older) }
        #expect(error?.kind == .databaseNewer)
        #expect(error?.message.contains("migration 2 (create_customers)") == true)
    }

    @Test func aFailingStatementNamesFileAndLineAndLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let folder = directory.migrations([
            "0001_ok.sql": "CREATE TABLE ok (id INTEGER PRIMARY KEY);",
            "0002_broken.sql": """
                -- creates a table, then fails
                CREATE TABLE half (id INTEGER PRIMARY KEY);

                INSERT INTO missing_table VALUES (1);
                """,
        ])
        let path = directory.path("db.sqlite")
        // The database exists at migration 1; then migration 2 fails.
        try Store(path: path, migrations: [try Migration.load(from: folder)[0]]).close()
        let error = migrationError { _ = try Store(path: path, migrations: folder) }
        #expect(error?.kind == .statementFailed)
        #expect(error?.file == "0002_broken.sql")
        #expect(error?.line == 4)
        #expect(error?.message.contains("no such table: missing_table") == true)
        #expect(error?.description.hasPrefix("0002_broken.sql:4: ") == true)
        // Migration 1 stays applied; nothing of migration 2 remains.
        let connection = try Connection(path: path)
        #expect(try connection.statement("SELECT version FROM _signalstore_migrations").rows() == [[.integer(1)]])
        #expect(try connection.statement("SELECT count(*) FROM sqlite_master WHERE name = 'half'").rows() == [[.integer(0)]])
    }

    @Test func aMisnamedSQLFileIsAnError() {
        let directory = TemporaryDirectory()
        let folder = directory.migrations(["1_a.sql": "SELECT 1;"])
        let error = migrationError { _ = try Migration.load(from: folder) }
        #expect(error?.kind == .badFileName)
        #expect(error?.file == "1_a.sql")
    }

    @Test func nonSQLFilesAreIgnored() throws {
        let directory = TemporaryDirectory()
        let folder = directory.migrations(["0001_a.sql": "CREATE TABLE a (x);", "README.md": "notes"])
        #expect(try Migration.load(from: folder).map(\.version) == [1])
    }

    @Test func nonUTF8IsAnError() throws {
        let directory = TemporaryDirectory()
        let folder = directory.migrations([:])
        try Data([0x43, 0x52, 0xFF, 0xFE, 0x00]).write(to: folder.appendingPathComponent("0001_bad.sql"))
        let error = migrationError { _ = try Migration.load(from: folder) }
        #expect(error?.kind == .notUTF8)
        #expect(error?.file == "0001_bad.sql")
    }

    @Test func aMissingFolderIsAnError() {
        let error = migrationError { _ = try Migration.load(from: URL(fileURLWithPath: "/nonexistent/Migrations")) }
        #expect(error?.kind == .missingDirectory)
        #expect(error?.message.contains("/nonexistent/Migrations") == true)
    }
}
