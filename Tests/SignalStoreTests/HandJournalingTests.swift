import Foundation
import Testing
@testable import SignalStore

/// The journal's pieces for a writer that journals inserts itself (sync applying a run of
/// another replica's inserts): the switch that turns the triggers off and back, the rule for
/// which values a column stores as given, and the entry it writes.
@Suite("Journaling inserts by hand", .ownThread)
struct HandJournalingTests {
    static let values: [SQLiteValue] = [
        .null, .integer(0), .integer(-7), .integer(.max), .real(2.0), .real(-0.0), .real(0.5), .real(1e300), .real(9.3e18),
        .real(.infinity), .real(-.infinity), .text("12"), .text("1.5"), .text("abc"), .text(" 3"), .text(""), .blob(Data([0, 255])),
    ]
    static let declaredTypes = ["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "", "VARCHAR(20)", "DOUBLE", "DECIMAL(10,2)"]

    /// ``ColumnAffinity/keeps(_:)`` never says a value is kept when SQLite converts it:
    /// checked against SQLite itself, value by value, for every affinity.
    @Test func keptValuesAreStoredAsGiven() throws {
        let connection = try Connection(path: ":memory:")
        for declared in Self.declaredTypes {
            try connection.execute("DROP TABLE IF EXISTS t; CREATE TABLE t (c \(declared))")
            let affinity = try #require(TableSchema.read("t", connection)?.columns.first?.affinity)
            for value in Self.values {
                try connection.execute("DELETE FROM t")
                try connection.statement("INSERT INTO t VALUES (?)").run([value])
                let stored = try connection.statement("SELECT c FROM t").rows()[0][0]
                let same = switch (stored, value) {
                case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
                default: stored == value
                }
                if affinity.keeps(value) { #expect(same, "\(declared): \(value) is stored as \(stored)") }
            }
        }
        // And it keeps what a column of the same type stores as given, for the common cases.
        #expect(ColumnAffinity.integer.keeps(.integer(5)) && ColumnAffinity.real.keeps(.real(2.0)) && ColumnAffinity.text.keeps(.text("12")))
        #expect(!ColumnAffinity.numeric.keeps(.real(2.0)) && !ColumnAffinity.real.keeps(.integer(2)) && !ColumnAffinity.integer.keeps(.text("12")))
    }

    /// The entry ``Journal/journalInsert(into:rowID:row:_:)`` writes reads back as the entry
    /// the insert trigger writes for the same row; with ``Journal/HandJournaling`` on, the
    /// capture triggers and any other persistent trigger are off and the store's own-entry
    /// trigger is set aside; off, and after a rollback, everything is back.
    @Test func theSwitchAndTheEntry() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("db.sqlite"), migrations: packageMigrations)
        defer { store.close() }
        _ = try store.execute("CREATE TABLE audited (id INTEGER PRIMARY KEY, note TEXT)")
        _ = try store.execute("CREATE TABLE audit (id INTEGER)")
        _ = try store.execute("CREATE TRIGGER audited_logged AFTER INSERT ON audited BEGIN INSERT INTO audit VALUES (NEW.id); END")
        let row: [(String, SQLiteValue)] = [
            ("id", .integer(1)), ("purchase_num", .integer(3)), ("status", .text("a \"quoted\"\nline")), ("note", .null),
            ("created_at", .real(1795733324.5209978)), ("updated_at", .real(-.infinity)), ("customer_id", .null),
        ]
        let ownEntryTrigger = "SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger'"
        try store.writeTransaction { connection in
            let orders = try #require(CapturedTable.all(store.schema, connection).first { $0.name == "orders" })
            let audited = try #require(CapturedTable.all(store.schema, connection).first { $0.name == "audited" })
            #expect(try Journal.insertsCanBeJournaledByHand(orders, connection))
            #expect(try !Journal.insertsCanBeJournaledByHand(audited, connection), "a user's trigger would be skipped")
            #expect(Journal.storedRow(of: orders, columns: row.map(\.0).reversed(), values: row.map(\.1).reversed())?.map(\.0) == orders.columns)
            #expect(Journal.storedRow(of: orders, columns: ["id"], values: [.integer(1)]) == nil, "the defaults decide the rest")

            var switcher = Journal.HandJournaling()
            #expect(try connection.scalar(ownEntryTrigger) == .integer(1))
            try switcher.set(true, connection)
            #expect(!connection.firesPersistentTriggers && switcher.isOn)
            #expect(try connection.scalar(ownEntryTrigger) == .integer(0))
            try connection.statement(RowSQL.insert(into: "orders", columns: row.map(\.0))).run(row.map(\.1))
            try connection.execute("INSERT INTO audited VALUES (1, 'x')")
            #expect(try connection.scalar("SELECT count(*) FROM _signalstore_changes") == .integer(0), "no trigger journaled the rows")
            #expect(try connection.scalar("SELECT count(*) FROM audit") == .integer(0))
            try Journal.journalInsert(into: "orders", rowID: connection.lastInsertRowID, row: row, connection)
            try switcher.set(false, connection)
            #expect(connection.firesPersistentTriggers && !switcher.isOn)
            #expect(try connection.scalar(ownEntryTrigger) == .integer(1))

            // The trigger's entry for the same row, from a copy of it.
            try connection.execute("INSERT INTO orders SELECT 2, purchase_num, status, note, created_at, updated_at, customer_id FROM orders WHERE id = 1")
            let entries = try Journal.entries(after: 0, connection)
            #expect(entries.count == 2)
            var byTrigger = entries.last?.row
            byTrigger?["id"] = .integer(1)
            #expect(entries.first?.row == byTrigger && entries.first?.row?["status"] == .text("a \"quoted\"\nline"))

            // A rollback after the trigger was set aside brings it back.
            try? connection.transaction {
                try switcher.set(true, connection)
                throw CancellationError()
            }
            try switcher.set(false, connection)
            #expect(try connection.scalar(ownEntryTrigger) == .integer(1) && connection.firesPersistentTriggers)
        }
        // The store publishes and journals as before.
        _ = try store.execute("INSERT INTO audited VALUES (2, 'y')")
        #expect(try store.readConnection { try $0.scalar("SELECT count(*) FROM audit") } == .integer(1))
    }
}
