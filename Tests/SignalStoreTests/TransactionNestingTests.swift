import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

/// Every nesting the public API allows, on the one transaction implementation
/// (`Connection.transaction`, which reads SQLite's own state to decide "outermost or nested").
@Suite("Transaction nesting", .ownThread)
struct TransactionNestingTests {
    private struct Abort: Error {}

    @Test("DDL inside store.transaction works, and the new table is captured in the same transaction", arguments: StoreKind.allCases)
    func ddlInsideATransaction(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        let feed = store.changes(since: 0).record()
        try store.transaction {
            try store.execute("CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT NOT NULL)")
            try store.execute("INSERT INTO tags (id, label) VALUES (1, 'urgent')")
            #expect(feed.values.isEmpty, "nothing is published before the outermost commit")
        }
        let entries = feed.values.filter { $0.table == "tags" }
        #expect(entries.map(\.operation) == [.insert])
        #expect(entries.first?.row?["label"] == .text("urgent"))
        try store.execute("UPDATE tags SET label = 'later' WHERE id = 1")
        #expect(feed.values.last?.column == "label")
        #expect(feed.values.last?.newValue == .text("later"))
    }

    @Test("DDL in a transaction that rolls back leaves neither the table nor its triggers", arguments: StoreKind.allCases)
    func ddlRolledBack(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        #expect(throws: Abort.self) {
            try store.transaction {
                try store.execute("CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT)")
                throw Abort()
            }
        }
        let leftovers = try rows(store, "SELECT name FROM sqlite_master WHERE name LIKE '%tags%'")
        #expect(leftovers.isEmpty)
        // The store still captures tables created later, even when the schema version comes
        // back to the one the rolled-back transaction reached (a table and an index).
        try store.execute("CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT); CREATE INDEX tags_by_label ON tags (label)")
        let feed = store.changes().record()
        try store.execute("INSERT INTO tags (id, label) VALUES (1, 'x')")
        #expect(feed.values.map(\.table) == ["tags"])
    }

    @Test("a transaction in a transaction commits with the outer one; signals emit once, after it")
    func nestedCommit() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let values = order.signal(for: \.purchaseNum).record()
        try store.transaction {
            order.purchaseNum = 2
            try store.transaction {
                order.purchaseNum = 3
                try store.transaction { order.status = "paid" }
            }
            #expect(values.values == [1], "nothing emits before the outermost commit")
            #expect(order.purchaseNum == 3)
        }
        #expect(values.values == [1, 3])
        #expect(try rows(store, "SELECT purchase_num, status FROM orders") == [[.integer(3), .text("paid")]])
    }

    @Test("rolling back a nested level keeps the outer level's writes, in the file and in memory")
    func nestedRollback() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let statuses = order.signal(for: \.status).record()
        let feed = store.changes().record()
        try store.transaction {
            order.purchaseNum = 2
            #expect(throws: Abort.self) {
                try store.transaction {
                    order.status = "paid"
                    try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 0, 'open')")
                    throw Abort()
                }
            }
            #expect(order.status == "open", "the rolled-back level's value is gone at once")
            #expect(order.purchaseNum == 2)
        }
        #expect(statuses.values == ["open"])
        #expect(feed.values.map(\.column) == ["purchase_num"])
        #expect(try rows(store, "SELECT id, purchase_num, status FROM orders") == [[.integer(1), .integer(2), .text("open")]])
    }

    @Test("an outer rollback undoes the nested levels that committed")
    func outerRollbackUndoesCommittedInnerLevels() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let feed = store.changes().record()
        #expect(throws: Abort.self) {
            try store.transaction {
                try store.transaction { order.purchaseNum = 7 }
                try store.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
                throw Abort()
            }
        }
        #expect(order.purchaseNum == 1)
        #expect(feed.values.isEmpty)
        #expect(try rows(store, "SELECT count(*) FROM sqlite_master WHERE name = 'notes'") == [[.integer(0)]])
    }

    @Test("a migration applied by another Store while one is open is captured by both")
    func migrationDuringAStoresLife() async throws {
        let folder = TemporaryDirectory()
        let path = folder.path("app.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        let feed = store.changes().record()
        var migrations = try Migration.load(from: packageMigrations)
        migrations.append(Migration(version: migrations.count + 1, name: "tags", sql: "CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT)"))
        let migrated = try Store(path: path, migrations: migrations)
        try migrated.execute("INSERT INTO tags (id, label) VALUES (1, 'a')")
        // Inside the first store's transaction, its own DDL-free write joins one stack too.
        try store.transaction {
            try store.execute("INSERT INTO tags (id, label) VALUES (2, 'b')")
        }
        await store.settle()
        #expect(feed.values.count == 2)
        #expect(feed.values.map(\.table) == ["tags", "tags"])
        migrated.close()
        store.close()
    }

    @Test("a read inside a write transaction, and a transaction on a reader, nest on one stack")
    func readsNest() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        try store.transaction {
            try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (5, 0, 'open')")
            #expect(try store.find(Order.self, id: Int64(5)) != nil, "reads inside the transaction see its writes")
        }
        let count = try store.read { _ in try store.all(Order.self).count }
        #expect(count == 1, "a read nested in a read joins its snapshot")
    }
}
