import Foundation
import Testing
@testable import SignalStore

/// Issue 33, item 1: the schema is read in one place and kept per `PRAGMA schema_version`.
@Suite("schema cache")
struct SchemaCacheTests {
    @Test func keepsWhatItReadUntilAnyConnectionChangesTheSchema() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("schema.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        defer { store.close() }
        let cache = SchemaCache()
        let first = try store.readConnection { connection in try cache.table("orders", connection) }
        #expect(first?.column(named: "discount") == nil)
        #expect(try store.readConnection { connection in try cache.rules("orders", connection) }.foreignKeys.map(\.parent) == ["customers"])
        // Another connection (here a plain one, as the sqlite3 shell would be) migrates.
        let other = try Connection(path: path)
        try other.execute("ALTER TABLE orders ADD COLUMN discount REAL; CREATE TABLE tags (id INTEGER PRIMARY KEY, customer_id REFERENCES customers ON DELETE CASCADE)")
        let second = try store.readConnection { connection in try cache.table("orders", connection) }
        #expect(second?.column(named: "discount") != nil, "a new schema version is read again")
        #expect(try store.readConnection { connection in try cache.tableNames(connection) }.contains("tags"))
        let tags = try store.readConnection { connection in try cache.rules("tags", connection) }
        #expect(tags.foreignKeys.first?.onDelete == .cascade && tags.foreignKeys.first?.referenced == [])
        #expect(try store.readConnection { connection in try cache.table("nothing", connection) } == nil)
    }

    /// After a rollback SQLite gives the next schema change the version the undone one had: a
    /// schema read inside a write transaction is not kept, or it would stand for the next one.
    @Test func aSchemaReadInsideAWriteTransactionIsNotKept() throws {
        let directory = TemporaryDirectory()
        let connection = try Connection(path: directory.path("rollback.sqlite"))
        let cache = SchemaCache()
        try connection.execute("CREATE TABLE kept (id INTEGER PRIMARY KEY)")
        #expect(try cache.tableNames(connection) == ["kept"])
        try connection.execute("BEGIN; CREATE TABLE undone (id INTEGER PRIMARY KEY)")
        #expect(try cache.tableNames(connection) == ["kept", "undone"], "the transaction sees its own table")
        #expect(try cache.capturedTables(connection).map(\.name) == ["kept", "undone"])
        try connection.execute("ROLLBACK")
        try connection.execute("CREATE TABLE made (id INTEGER PRIMARY KEY)")
        #expect(try cache.tableNames(connection) == ["kept", "made"])
        #expect(try cache.capturedTables(connection).map(\.name) == ["kept", "made"])
    }
}
