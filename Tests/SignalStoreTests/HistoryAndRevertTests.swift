import Foundation
import SignalStoreTesting
import SignalsTesting
import Testing
@testable import SignalStore

/// A customer of the package's `customers` table, for reverts that span two tables.
@Model(table: "customers")
final class RevertCustomer {
    var id: Int64
    var name: String
    var email: String?

    init(id: Int64, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}

/// Row history and revert through the public API, with the `sqlite3` shell as a foreign writer.
@Suite("History and revert", .ownThread)
struct HistoryAndRevertTests {
    /// The package's tables plus one whose key is text (its rows keep a separate rowid).
    static let migrations = packageMigrationList + [
        Migration(version: 3, name: "settings", sql: """
            CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB, weight REAL);
            CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE kids (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents (id) ON DELETE CASCADE);
            """),
    ]

    private func openStore() throws -> (Store, String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.path("history.sqlite")
        return (try Store(path: path, migrations: Self.migrations), path, directory)
    }


    private func summary(_ changes: [Change]) -> [String] {
        changes.map { "\($0.operation.rawValue) \($0.table)[\($0.rowID)]\($0.column.map { " " + $0 } ?? "")" }
    }

    @Test
    func historyHoldsEveryWriterAndFollowsAKeyChange() async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        order.purchaseNum = 2
        try sqlite3(path, "UPDATE orders SET status = 'paid' WHERE id = 1; UPDATE orders SET id = 9 WHERE id = 1; UPDATE orders SET note = 'moved' WHERE id = 9;")
        await store.settle()
        #expect(order.id == 9 && order.note == "moved")
        let expected = ["insert orders[1]", "update orders[1] purchase_num", "update orders[1] status", "update orders[1] id", "update orders[9] note"]
        #expect(summary(try store.history(of: order)) == expected)
        #expect(summary(try store.history(table: "orders", rowID: 9)) == expected)
        #expect(summary(try store.history(table: "orders", rowID: 2)) == ["insert orders[2]"])
        // A row that later takes the freed key 1 starts its own history there.
        try store.insert(Order(id: 1, purchaseNum: 5, status: "new"))
        #expect(summary(try store.history(table: "orders", rowID: 1)).last == "insert orders[1]")
        #expect(summary(try store.history(table: "orders", rowID: 1)).count == 5)   // the old key's entries, then the new row
        #expect(throws: StoreError.self) { try store.history(table: "nope", rowID: 1) }
        #expect(throws: StoreError.self) { try store.history(of: Order(id: 3, purchaseNum: 1, status: "open")) }
    }

    @Test func revertAfterAMarkUndoesAUserActionAndLiveObjectsFollow() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)
        let counts = order.signal(for: \.purchaseNum).record()
        let mark = try store.lastChangeSeq
        try store.transaction {
            order.purchaseNum = 5
            order.status = "paid"
            try store.insert(RevertCustomer(id: 7, name: "Ann"))
        }
        let written = try store.revert(after: mark)
        #expect(summary(written) == ["delete customers[7]", "update orders[42] status", "update orders[42] purchase_num"])
        #expect(order.purchaseNum == 1 && order.status == "open")
        #expect(try store.find(RevertCustomer.self, id: 7) == nil)
        #expect(counts.values == [1, 5, 1])
        // Redo is a revert of the revert.
        let redone = try store.revert(written[0].seq...written[2].seq)
        #expect(redone.count == 3)
        #expect(order.purchaseNum == 5 && order.status == "paid")
        #expect(try store.find(RevertCustomer.self, id: 7)?.name == "Ann")
        #expect(try store.revert(after: store.lastChangeSeq).isEmpty)
    }

    @Test func aLaterChangeOfTheSameColumnIsAConflictAndNothingIsWritten() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        order.status = "paid"
        let paid = try store.lastChangeSeq
        order.purchaseNum = 3          // another column: no conflict
        order.status = "shipped"       // the same column: a conflict
        let shipped = try store.lastChangeSeq
        let before = try store.lastChangeSeq
        #expect {
            try store.revert(paid...paid)
        } throws: { error in
            guard case .revertConflict(let range, let later)? = error as? StoreError else { return false }
            return range == paid...paid && later.map(\.seq) == [shipped]
                && "\(error)".contains("#\(shipped) (orders[1] update status)")
        }
        #expect(try store.lastChangeSeq == before)
        #expect(order.status == "shipped")
        try store.revert(paid...paid, overwritingLaterChanges: true)
        #expect(order.status == "open" && order.purchaseNum == 3)
        // Deleting the row later conflicts with reverting its insert or any of its updates.
        let insertSeq = try store.history(of: order)[0].seq
        try store.delete(order)
        #expect(throws: StoreError.self) { try store.revert(insertSeq...insertSeq) }
    }

    @Test("a revert and its preview check the later entries on a reader: while another connection holds the write lock, a conflict is refused at once, not after the busy timeout")
    func aConflictIsFoundWithoutTheWriteLock() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("history.sqlite")
        let store = try Store(path: path, migrations: Self.migrations, busyTimeout: .seconds(20))
        defer { withExtendedLifetime(directory) { store.close() } }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        order.status = "paid"
        let paid = try store.lastChangeSeq
        order.status = "shipped"
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let attempts: [(String, () throws -> Void)] = [
            ("preview", { _ = try store.revertPreview(paid...paid) }),
            ("revert", { try store.revert(paid...paid) }),
        ]
        for (name, attempt) in attempts {
            let started = ContinuousClock.now
            #expect("\(name)") {
                try attempt()
            } throws: { error in
                guard case .revertConflict? = error as? StoreError else { return false }
                return true
            }
            let waited = ContinuousClock.now - started
            #expect(waited < .seconds(10), "the \(name) waited \(waited) for a write lock it did not need")
        }
        #expect(order.status == "shipped")
    }

    @Test
    func aForeignWritersDeleteComesBackWholeWithItsRowid() async throws {
        let (store, path, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        try sqlite3(path, "INSERT INTO settings VALUES ('theme', x'00ff10', 0.1); INSERT INTO settings VALUES ('font', NULL, 1e300);")
        let rowID = try #require(try store.read { try $0.connection.scalar("SELECT rowid FROM settings WHERE name = 'theme'")?.integerValue })
        let mark = try store.lastChangeSeq
        try sqlite3(path, "DELETE FROM settings WHERE name = 'theme';")
        await store.settle()
        #expect(try store.lastChangeSeq > mark)
        try store.revert(after: mark)
        let row = try store.read { try $0.connection.statement("SELECT rowid, value, weight FROM settings WHERE name = 'theme'").rows() }
        #expect(row == [[.integer(rowID), .blob(Data([0, 255, 16])), .real(0.1)]])
        #expect(summary(try store.history(table: "settings", rowID: rowID)).map { $0.components(separatedBy: " ")[0] } == ["insert", "delete", "insert"])
    }

    @Test func badRangesAreRefusedAndWriteNothing() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        let last = try store.lastChangeSeq
        #expect(throws: StoreError.invalidArgument("cannot revert seq 1...\(last + 1): the change feed has entries 1...\(last); give a range inside it")) {
            try store.revert(1...(last + 1))
        }
        _ = try store.pruneChanges(through: 1)
        #expect(throws: StoreError.changeFeedGap(since: 0, prunedThrough: 1)) { try store.revert(1...2) }
        #expect(try store.lastChangeSeq == last)
        // A constraint that refuses an old value rolls the whole revert back.
        let customer = RevertCustomer(id: 1, name: "Ann", email: "ann@example.com")
        try store.insert(customer)
        customer.email = "ann@example.org"
        let changed = try store.lastChangeSeq
        try store.insert(RevertCustomer(id: 2, name: "Bob", email: "ann@example.com"))
        #expect(throws: StoreError.self) { try store.revert(changed...changed) }
        #expect(customer.email == "ann@example.org")
    }

    @Test func aRangeThatAMigrationSplitsIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("split.sqlite")
        var store = try Store(path: path, migrations: packageMigrationList)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        store.close()
        store = try Store(path: path, migrations: Self.migrations)
        defer { store.close() }
        try store.insert(Order(id: 2, purchaseNum: 1, status: "open"))
        #expect {
            try store.revert(1...2)
        } throws: { error in
            "\(error)".contains("migration 3 (settings) changed the schema after seq 1, and schema changes are not in the change feed; revert seq 1...1 and seq 2...2 separately")
        }
        try store.revert(2...2)
        try store.revert(1...1)
        #expect(try store.all(Order.self).isEmpty)
    }

    @Test func aKeyChangeIsRevertedAndAnotherRowTakingTheKeyIsAConflict() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let mark = try store.lastChangeSeq
        try store.execute("UPDATE orders SET id = 5, status = 'moved' WHERE id = 1")
        let moved = try store.lastChangeSeq
        try store.revert(after: mark)
        #expect(order.id == 1 && order.status == "open")
        #expect(try store.all(Order.self).map(\.id) == [1])
        // Redo, then a new row takes the freed key 1: undoing the move would collide with it.
        try store.revert(after: moved)
        #expect(order.id == 5)
        try store.insert(Order(id: 1, purchaseNum: 2, status: "new"))
        let taken = try store.lastChangeSeq
        #expect {
            try store.revert((mark + 1)...moved)
        } throws: { error in
            guard case .revertConflict(_, let later)? = error as? StoreError else { return false }
            return later.map(\.seq).contains(taken)
        }
        #expect(order.id == 5)
    }

    @Test func aCascadedDeleteComesBackParentFirst() throws {
        let (store, _, directory) = try openStore()
        defer { withExtendedLifetime(directory) { store.close() } }
        try store.execute("INSERT INTO parents VALUES (1, 'p')")
        try store.execute("INSERT INTO kids VALUES (1, 1), (2, 1)")
        let mark = try store.lastChangeSeq
        try store.execute("DELETE FROM parents WHERE id = 1")
        #expect(summary(try store.journalEntries(after: mark)) == ["delete kids[1]", "delete kids[2]", "delete parents[1]"])
        let written = try store.revert(after: mark)
        #expect(summary(written) == ["insert parents[1]", "insert kids[2]", "insert kids[1]"])
        let kids = try store.read { try $0.connection.statement("SELECT id, parent_id FROM kids ORDER BY id").rows() }
        #expect(kids == [[.integer(1), .integer(1)], [.integer(2), .integer(1)]])
    }
}
