import Foundation
import Testing
@testable import SignalStore

@Suite("Change capture")
struct ChangeCaptureTests {
    private func journal(_ store: Store) throws -> [Change] {
        try store.journalEntries(after: 0)
    }

    @Test("inserts, per-column updates and deletes are journaled", arguments: StoreKind.allCases)
    func capturesEveryKindOfChange(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (42, 1, 'open', NULL, 10.5)")
        try store.execute("UPDATE orders SET purchase_num = 3, status = 'open', note = 'rush' WHERE id = 42")
        try store.execute("DELETE FROM orders WHERE id = 42")
        let changes = try journal(store)
        #expect(changes.map(\.operation) == [.insert, .update, .update, .delete])
        #expect(changes.map(\.seq) == [1, 2, 3, 4])
        #expect(changes[0].row?["purchase_num"] == .integer(1))
        #expect(changes[0].row?["note"] == .null)
        #expect(changes[0].row?["created_at"] == .real(10.5))
        // Only the columns whose value changed: status was set to the same value.
        let updates = changes.filter { $0.operation == .update }
        #expect(Set(updates.compactMap(\.column)) == ["purchase_num", "note"])
        let purchase = updates.first { $0.column == "purchase_num" }
        #expect(purchase?.oldValue == .integer(1))
        #expect(purchase?.newValue == .integer(3))
        #expect(updates.first { $0.column == "note" }?.oldValue == .null)
        #expect(changes[3].row?["note"] == .text("rush"))
        #expect(changes.allSatisfy { $0.table == "orders" && $0.rowID == 42 })
        #expect(changes.allSatisfy { abs($0.timestamp.timeIntervalSinceNow) < 60 })
    }

    @Test("an update that changes nothing writes nothing", arguments: StoreKind.allCases)
    func noOpUpdatesAreNotJournaled(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        try store.execute("UPDATE orders SET purchase_num = 1, status = 'open'")
        #expect(try journal(store).count == 1)
    }

    @Test("DELETE without WHERE is captured row by row", arguments: StoreKind.allCases)
    func deleteAllIsCaptured(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        for id in 1...5 { try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, 0, 'open')", arguments: [.integer(Int64(id))]) }
        try store.execute("DELETE FROM orders")
        let deletes = try journal(store).filter { $0.operation == .delete }
        #expect(deletes.map(\.rowID) == [1, 2, 3, 4, 5])
    }

    @Test func ownTablesSQLiteTablesAndWithoutRowIDTablesAreNotCaptured() throws {
        let store = try Store.inMemory(migrations: [
            Migration(version: 1, name: "tables", sql: """
                CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
                CREATE TABLE plain (x TEXT);
                """),
        ])
        try store.execute("INSERT INTO kv VALUES ('a', 'b'); INSERT INTO plain VALUES ('p')")
        #expect(try journal(store).map(\.table) == ["plain"])
        let triggers = try rows(store, "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger'").map { $0[0] }
        #expect(triggers == [.text("plain")])
    }

    @Test func triggersAreRepairedAfterARawAlterTableAndNewTablesAreCaptured() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let raw = try Connection(path: path)
        try raw.execute("ALTER TABLE orders ADD COLUMN priority INTEGER; CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'before capture')")
        let store = try Store(path: path, migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status, priority) VALUES (1, 1, 'open', 5)")
        try store.execute("UPDATE orders SET priority = 9 WHERE id = 1")
        let changes = try journal(store)
        // The pre-existing note is journaled when capture starts, so a replay rebuilds it.
        #expect(changes.first { $0.table == "notes" }?.row?["body"] == .text("before capture"))
        #expect(changes.first { $0.table == "orders" && $0.operation == .insert }?.row?["priority"] == .integer(5))
        #expect(changes.last?.column == "priority")
        #expect(changes.last?.newValue == .integer(9))
    }

    @Test func repairIsIdempotent() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        let before = try Connection(path: path).statement("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").rows()
        try Store(path: path, migrations: packageMigrations).close()
        let after = try Connection(path: path).statement("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").rows()
        #expect(before == after)
        // Per table: stage-insert, insert, evict-insert, delete, stage-update, evict-update; one
        // per column; and customers' delete rule for orders.customer_id (ON DELETE SET NULL).
        #expect(before.count == 2 * 6 + 7 + 3 + 1)
    }

    @Test func representationIsExactForRealsBlobsAndText() throws {
        let store = try Store.inMemory(migrations: [Migration(version: 1, name: "s", sql: "CREATE TABLE s (id INTEGER PRIMARY KEY, r, b, t)")])
        let values: [(SQLiteValue, SQLiteValue, SQLiteValue)] = [
            (.real(0.1 + 0.2), .blob(Data([0, 1, 2, 255])), .text("quote \" back\\slash\nnewline é 😀")),
            (.real(.infinity), .blob(Data()), .text("")),
            (.real(-.infinity), .null, .text(#"{"$blob":"00"}"#)),
            (.real(.leastNonzeroMagnitude), .blob(Data(repeating: 7, count: 300)), .integer(Int64.min)),
            (.real(-0.0), .real(1e300), .integer(Int64.max)),
        ]
        for (offset, (r, b, t)) in values.enumerated() {
            try store.execute("INSERT INTO s VALUES (?, ?, ?, ?)", arguments: [.integer(Int64(offset)), r, b, t])
        }
        let journaled = try journal(store).map { $0.row ?? [:] }
        for (offset, (r, b, t)) in values.enumerated() {
            #expect(journaled[offset]["r"] == r)
            #expect(journaled[offset]["b"] == b)
            #expect(journaled[offset]["t"] == t)
        }
    }

    @Test func changingThePrimaryKeyWithOtherColumnsReplaysInOrder() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        try store.execute("UPDATE orders SET id = 7, purchase_num = 2, status = 'paid' WHERE id = 1")
        let updates = try journal(store).filter { $0.operation == .update }
        #expect(updates.first?.column == "id")
        #expect(updates.first?.rowID == 1)
        #expect(updates.dropFirst().allSatisfy { $0.rowID == 7 })
        try JournalReplay.expectEqual(store, try JournalReplay.replay(store, migrations: packageMigrationList))
    }

    @Test("replaying the journal from seq 0 rebuilds every captured table", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func replayRebuildsEveryTable(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let migrations = packageMigrationList + [
            Migration(version: 3, name: "samples", sql: "CREATE TABLE samples (id INTEGER PRIMARY KEY, r REAL, b BLOB, t TEXT, i INTEGER); INSERT INTO samples (r) VALUES (1.5);"),
        ]
        let store = try Store.inMemory(migrations: migrations)
        let interesting: [SQLiteValue] = [.null, .integer(0), .integer(-1), .integer(.max), .real(0.1 + 0.2), .real(.infinity), .real(-2.5e-10),
                                          .text("it's \"quoted\" 😀"), .text(""), .blob(Data([0, 0, 1])), .blob(Data())]
        for _ in 0..<300 {
            try performRandomOperation(on: store, with: &random, interesting: interesting)
        }
        try JournalReplay.expectEqual(store, try JournalReplay.replay(store, migrations: migrations))
    }

    private func performRandomOperation(on store: Store, with random: inout SeededGenerator, interesting: [SQLiteValue]) throws {
        let id = SQLiteValue.integer(Int64.random(in: 1...20, using: &random))
        let value = interesting.randomElement(using: &random)!
        let statements: [(String, [SQLiteValue])] = [
            ("INSERT OR IGNORE INTO orders (id, purchase_num, status, note) VALUES (?, ?, 'open', ?)", [id, .integer(Int64.random(in: 0...9, using: &random)), value]),
            ("UPDATE orders SET purchase_num = ?, status = ? WHERE id = ?", [.integer(Int64.random(in: 0...9, using: &random)), .text(["open", "paid"].randomElement(using: &random)!), id]),
            ("UPDATE orders SET note = ? WHERE id = ?", [value, id]),
            ("UPDATE OR IGNORE orders SET id = ? WHERE id = ?", [.integer(Int64.random(in: 1...20, using: &random)), id]),
            ("DELETE FROM orders WHERE id = ?", [id]),
            ("INSERT OR REPLACE INTO customers (id, name, email) VALUES (?, 'c', ?)", [id, .text("c\(Int.random(in: 1...5, using: &random))@x")]),
            ("UPDATE orders SET customer_id = (SELECT id FROM customers ORDER BY random() LIMIT 1) WHERE id = ?", [id]),
            ("DELETE FROM customers WHERE id = ?", [id]),
            ("INSERT OR REPLACE INTO samples (id, r, b, t, i) VALUES (?, ?, ?, ?, ?)", [id, value, value, value, value]),
            ("UPDATE samples SET r = ?, b = ? WHERE id = ?", [value, interesting.randomElement(using: &random)!, id]),
            ("DELETE FROM samples WHERE id = ?", [id]),
        ]
        let (sql, arguments) = statements.randomElement(using: &random)!
        try store.execute(sql, arguments: arguments)
    }
}

@Suite("Capture of awkward schemas")
struct AwkwardSchemaCaptureTests {
    @Test func tablesWhoseNamesShareAPrefixKeepTheirOwnTriggersAcrossReopens() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("names.sqlite")
        let migrations = [Migration(version: 1, name: "names", sql: #"CREATE TABLE "a" (x); CREATE TABLE "a:b" (y); CREATE TABLE "a:b:c" (z);"#)]
        let store = try Store(path: path, migrations: migrations)
        try store.execute(#"INSERT INTO "a" VALUES (1); INSERT INTO "a:b" VALUES (2); INSERT INTO "a:b:c" VALUES (3)"#)
        store.close()
        let reopened = try Store(path: path, migrations: migrations)
        #expect(try reopened.journalEntries(after: 0).map(\.table) == ["a", "a:b", "a:b:c"], "no table is snapshotted again on reopen")
        try JournalReplay.expectEqual(reopened, try JournalReplay.replay(reopened, migrations: migrations))
        reopened.close()
    }

    @Test("the terms and condition of a CREATE INDEX statement", arguments: [
        (#"CREATE UNIQUE INDEX i ON t (a, b)"#, ["a", "b"], nil),
        (#"CREATE UNIQUE INDEX "x(y" ON "t(1)" (lower("c,d") COLLATE NOCASE DESC, b ASC) WHERE b > 0 AND "w(" = ')'"#, [#"lower("c,d")"#, "b"], #"b > 0 AND "w(" = ')'"#),
        ("CREATE UNIQUE INDEX i ON t(substr(a, 1, 2))\nWHERE\n  active = 1", ["substr(a, 1, 2)"], "active = 1"),
        ("CREATE UNIQUE INDEX [i] ON `t` ([a]) where a is not null", ["[a]"], "a is not null"),
    ] as [(String, [String], String?)])
    func indexDefinitions(sql: String, terms: [String], condition: String?) throws {
        let definition = try #require(IndexDefinition(sql: sql))
        #expect(definition.terms == terms)
        #expect(definition.condition == condition)
    }
}
