import Foundation
import SignalStoreTesting
import SignalsTesting
import Testing
@testable import SignalStore

/// Conflict clauses written by foreign writers with SQLite's default settings (the `sqlite3`
/// shell, Python's `sqlite3`): every row they evict is journaled, live objects follow.
@Suite("Every writer", .ownThread)
struct EveryWriterTests {
    /// The package's tables plus tables with every kind of UNIQUE index.
    static let migrations = packageMigrationList + [
        Migration(version: 3, name: "unique_kinds", sql: """
            CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT UNIQUE ON CONFLICT REPLACE);
            CREATE TABLE people (id INTEGER PRIMARY KEY, email TEXT COLLATE NOCASE UNIQUE, handle TEXT, active INTEGER);
            CREATE UNIQUE INDEX people_by_handle ON people (lower(handle));
            CREATE UNIQUE INDEX one_active_person ON people (active) WHERE active = 1;
            CREATE TABLE notes (body TEXT UNIQUE);
            CREATE TABLE pairs (a TEXT, b TEXT, PRIMARY KEY (a, b));
            """),
    ]

    private func openStore() throws -> (Store, String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.path("every.sqlite")
        return (try Store(path: path, migrations: Self.migrations), path, directory)
    }


    /// Replaying the journal (strictly) from seq 0 rebuilds every table.
    private func expectReplayRebuildsTables(_ store: Store) throws {
        try JournalReplay.expectEqual(store, try JournalReplay.replay(store, migrations: Self.migrations))
    }

    private func entries(_ store: Store, after seq: Int64) throws -> [String] {
        try store.journalEntries(after: seq).map { "\($0.operation.rawValue) \($0.table)[\($0.rowID)]\($0.column.map { " " + $0 } ?? "")" }
    }

    @Test func replaceIntoALiveOrderUpdatesTheObjectAndFiresOnlyChangedProperties() async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "new", note: "keep")
        try store.insert(order)
        let purchases = order.signal(for: \.purchaseNum).record()
        let statuses = order.signal(for: \.status).record()
        let notes = order.signal(for: \.note).record()
        let before = try store.lastChangeSeq
        try sqlite3(path, "REPLACE INTO orders (id, purchase_num, status, note) VALUES (1, 9, 'replaced', 'keep')")
        // The poller stores the new values, then delivers them once it releases its locks.
        await store.settle()
        #expect(purchases.values == [1, 9] && statuses.values == ["new", "replaced"])
        #expect(order.purchaseNum == 9 && order.status == "replaced")
        #expect(purchases.values == [1, 9])
        #expect(statuses.values == ["new", "replaced"])
        #expect(notes.values == ["keep"], "an unchanged column does not emit")
        #expect(purchases.events.count == 2, "a replaced row does not complete its object")
        #expect(try entries(store, after: before) == ["delete orders[1]", "insert orders[1]"])
        #expect(try store.find(Order.self, id: 1) === order)
        try expectReplayRebuildsTables(store)
        store.close()
    }

    @Test func insertOrReplaceThatEvictsByAUniqueIndexJournalsTheDelete() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("INSERT INTO customers (id, name, email) VALUES (1, 'a', 'a@x')")
        try await store.expectChanges([.delete("customers", id: 1), .insert("customers", id: 2, ["email": "a@x"])]) {
            try store.sqlite3("INSERT OR REPLACE INTO customers (id, name, email) VALUES (2, 'c', 'a@x')")
        }
        try expectReplayRebuildsTables(store.store)
    }

    @Test func updateOrReplaceOfTheKeyCompletesTheEvictedObjectAndMovesTheOther() throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let first = Order(id: 1, purchaseNum: 1, status: "open")
        let second = Order(id: 2, purchaseNum: 2, status: "open")
        try store.insert(first)
        try store.insert(second)
        let evicted = second.signal(for: \.status).record()
        let moved = first.signal(for: \.id).record()
        let before = try store.lastChangeSeq
        try sqlite3(path, "UPDATE OR REPLACE orders SET id = 2 WHERE id = 1")
        #expect(evicted.waitForEvents(count: 2))
        #expect(evicted.events == [.value("open"), .completed])
        #expect(moved.waitForEvents(count: 2))
        #expect(moved.values == [1, 2])
        #expect(try entries(store, after: before) == ["delete orders[2]", "update orders[1] id"])
        #expect(try store.find(Order.self, id: 2) === first)
        first.purchaseNum = 5
        #expect(try rows(store, "SELECT purchase_num FROM orders WHERE id = 2") == [[.integer(5)]], "the moved object writes to its new row")
        try expectReplayRebuildsTables(store)
        store.close()
    }

    @Test func insertingAnIdWhoseRowAnotherProcessDeletedCompletesTheOldObject() throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        let old = Order(id: 30, purchaseNum: 1, status: "old")
        try store.insert(old)
        let signal = old.signal(for: \.status).record()
        try sqlite3(path, "DELETE FROM orders WHERE id = 30")
        let fresh = Order(id: 30, purchaseNum: 2, status: "fresh")
        try store.insert(fresh)   // whether or not the poller has read the delete yet
        #expect(signal.waitForEvents(count: 2))
        #expect(signal.events == [.value("old"), .completed])
        #expect(try store.find(Order.self, id: 30) === fresh)
        old.status = "ignored"
        #expect(try rows(store, "SELECT status FROM orders WHERE id = 30") == [[.text("fresh")]], "the completed object no longer writes")
        store.close()
    }

    @Test func insertOrIgnoreThatChangesNothingJournalsNothing() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("INSERT INTO customers (id, name, email) VALUES (1, 'a', 'a@x')")
        // The ignored rows leave no entry; the next insert (which conflicts with nothing, so
        // stages nothing) is not confused by the row they staged, nor is its later delete.
        try await store.expectChanges([.insert("customers", id: 3, ["email": "c@x"]), .delete("customers", id: 1)]) {
            try store.sqlite3("""
                INSERT OR IGNORE INTO customers (id, name, email) VALUES (1, 'b', 'b@x');
                INSERT OR IGNORE INTO customers (id, name, email) VALUES (2, 'b', 'a@x');
                INSERT INTO customers (id, name, email) VALUES (3, 'c', 'c@x');
                DELETE FROM customers WHERE id = 1;
                """)
        }
        try expectReplayRebuildsTables(store.store)
    }

    @Test func upsertJournalsUpdates() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("INSERT INTO customers (id, name, email) VALUES (1, 'a', 'a@x')")
        try await store.expectChanges([.update("customers", id: 1, "name", from: "a", to: "renamed")]) {
            try store.sqlite3("INSERT INTO customers (id, name, email) VALUES (1, 'renamed', 'a@x') ON CONFLICT (id) DO UPDATE SET name = excluded.name")
        }
        try expectReplayRebuildsTables(store.store)
    }

    @Test("evictions by every kind of UNIQUE index", arguments: [
        ("INSERT INTO tags (id, name) VALUES (2, 'red')", ["delete tags[1]", "insert tags[2]"]),
        ("REPLACE INTO people (id, email, handle, active) VALUES (5, 'A@X', 'new', 0)", ["delete people[1]", "insert people[5]"]),
        ("REPLACE INTO people (id, email, handle, active) VALUES (5, 'n@x', 'ANN', 0)", ["delete people[1]", "insert people[5]"]),
        ("REPLACE INTO people (id, email, handle, active) VALUES (5, 'n@x', 'new', 1)", ["delete people[2]", "insert people[5]"]),
        ("REPLACE INTO people (id, email, handle, active) VALUES (5, 'a@x', 'bob', 0)", ["delete people[1]", "delete people[2]", "insert people[5]"]),
        ("UPDATE OR REPLACE people SET active = 1 WHERE id = 1", ["delete people[2]", "update people[1] active"]),
        ("UPDATE OR REPLACE people SET handle = 'Bob' WHERE id = 1", ["delete people[2]", "update people[1] handle"]),
        ("UPDATE OR REPLACE notes SET rowid = 2 WHERE rowid = 1", ["delete notes[2]", "update notes[1] rowid"]),
        ("UPDATE OR REPLACE notes SET body = 'two' WHERE rowid = 1", ["delete notes[2]", "update notes[1] body"]),
        ("PRAGMA recursive_triggers = ON; REPLACE INTO people (id, email, handle, active) VALUES (1, 'b@x', 'x', 0)", ["delete people[1]", "delete people[2]", "insert people[1]"]),
        ("INSERT OR FAIL INTO tags (id, name) VALUES (3, 'blue'), (1, 'x'), (4, 'green')", ["insert tags[3]"]),
    ])
    func evictionsByEveryKindOfUniqueIndex(statement: String, expected: [String]) async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) {} }
        try store.execute("""
            INSERT INTO tags (id, name) VALUES (1, 'red');
            INSERT INTO people (id, email, handle, active) VALUES (1, 'a@x', 'ann', 0), (2, 'b@x', 'bob', 1);
            INSERT INTO notes (rowid, body) VALUES (1, 'one'), (2, 'two');
            """)
        let before = try store.lastChangeSeq
        _ = try run(sqlite3Path(), [path, ".timeout 5000", statement])   // OR FAIL fails part-way on purpose
        await store.settle()
        #expect(try store.journalEntries(after: before).count == expected.count)
        #expect(try entries(store, after: before) == expected)
        try expectReplayRebuildsTables(store)
        store.close()
    }

    @Test
    func pythonsSQLite3UpsertHelpersAreCaptured() async throws {
        let store = try TestStore(migrations: Self.migrations)
        try store.execute("INSERT INTO customers (id, name, email) VALUES (1, 'a', 'a@x'), (2, 'b', 'b@x')")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executemany("INSERT OR REPLACE INTO customers (id, name, email) VALUES (?, ?, ?)", [(3, 'c', 'a@x'), (2, 'B', 'b@x')])
            db.commit()
            """
        try await store.expectChanges([
            .delete("customers", id: 1), .insert("customers", id: 3, ["email": "a@x"]),
            .delete("customers", id: 2), .insert("customers", id: 2, ["name": "B"]),
        ]) {
            try python3(script, [store.path])
        }
        try expectReplayRebuildsTables(store.store)
    }
}
