#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: constraints between replicas never stop sync, and replicas converge", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct ConstraintTests {
    /// The example schema plus a reference whose parent's delete is refused, and a CHECK that
    /// reads two columns.
    static let migrations = packageMigrationList + [
        Migration(version: 3, name: "lines and ranges", sql: """
            CREATE TABLE lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE RESTRICT, note TEXT);
            CREATE TABLE ranges (id INTEGER PRIMARY KEY, lo INTEGER NOT NULL, hi INTEGER NOT NULL, CHECK (lo <= hi));
            """),
    ]

    private func replica(_ folder: TemporaryDirectory, _ name: String) throws -> Replica {
        try Replica(folder, name, migrations: Self.migrations)
    }

    private func rows(_ replica: Replica, _ sql: String) throws -> [[SQLiteValue]] {
        try replica.store.readConnection { try $0.statement(sql).rows() }
    }

    private func everything(_ replica: Replica) throws -> [String] {
        try ["customers", "orders", "lines", "ranges"].flatMap { table in
            try rows(replica, "SELECT * FROM \(table) ORDER BY 1").map { "\(table) " + $0.map(\.description).joined(separator: " | ") }
        }
    }

    @Test("report 1: two replicas insert customers with one email; the one the log puts first stands on both, the other is undone and listed by its origin, and other writes cross", arguments: [false, true])
    func uniqueCollision(bFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'before a'); INSERT INTO customers VALUES (101, 'Ann', 'same@example.com')")
        try sqlite3(b.path, "INSERT INTO customers VALUES (102, 'Bob', 'same@example.com'); INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'before b')")
        let (first, second) = bFirst ? (syncB, syncA) : (syncA, syncB)
        try await first.syncOnce()
        try await second.syncOnce()   // applies the first's customer: its own, pending, loses
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'after a')")
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        let winner = bFirst ? "102 | 'Bob'" : "101 | 'Ann'"
        for replica in [a, b] {
            #expect(try rows(replica, "SELECT id, name FROM customers").map { $0.map(\.description).joined(separator: " | ") } == [winner], "\(replica.path)")
            #expect(try rows(replica, "SELECT id FROM orders ORDER BY id") == [[.integer(1)], [.integer(2)], [.integer(3)]])
        }
        let loser = bFirst ? syncA : syncB
        let conflicts = loser.conflicts.value
        #expect(conflicts.count == 1, "\(conflicts)")
        let conflict = try #require(conflicts.first)
        #expect(conflict.isLocal && conflict.table == "customers" && conflict.operation == .insert)
        #expect(conflict.key == [.integer(bFirst ? 101 : 102)])
        #expect(conflict.row?["email"] == .text("same@example.com") && conflict.row?["name"] == .text(bFirst ? "Ann" : "Bob"))
        #expect(conflict.rule == "UNIQUE constraint failed: customers.email")
        #expect(conflict.collidedWith.contains("insert customers [\(bFirst ? 102 : 101)]"), "\(conflict.collidedWith)")
        #expect((bFirst ? syncB : syncA).conflicts.value.isEmpty, "the winner's side lost nothing")

        // Fixed and re-applied, it syncs like any change; a fresh replica joins and agrees.
        try loser.reapply(conflict, changing: ["email": .text("other@example.com")])
        #expect(loser.conflicts.value.isEmpty)
        for client in [loser, bFirst ? syncB : syncA] { try await client.syncOnce() }
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(a) == everything(b))
        #expect(try everything(late) == everything(a))
        #expect(try rows(late, "SELECT count(*) FROM customers") == [[.integer(2)]])
    }

    @Test("a UNIQUE collision by update: the pending new email is undone to the value the log holds, and listed")
    func uniqueCollisionByUpdate() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "INSERT INTO customers VALUES (2, 'Cy', 'taken@example.com')")
        try sqlite3(b.path, "UPDATE customers SET email = 'taken@example.com', name = 'Ann B' WHERE id = 1")
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()
        for replica in [a, b] {
            #expect(try rows(replica, "SELECT id, name, email FROM customers ORDER BY id") == [
                [.integer(1), .text("Ann B"), .text("ann@example.com")],   // the name change stands; the email lost
                [.integer(2), .text("Cy"), .text("taken@example.com")],
            ], "\(replica.path)")
        }
        let conflict = try #require(syncB.conflicts.value.first)
        #expect(conflict.operation == .update && conflict.column == "email" && conflict.row?["email"] == .text("taken@example.com"))
    }

    @Test("a pending order for a pending customer that loses loses with it: the customer's undo does not leave the order behind with a NULL its outbox does not hold (model seed 12)")
    func childOfALostInsertLosesToo() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'Ann', 'same@example.com')")
        try sqlite3(b.path, "INSERT INTO customers VALUES (2, 'Bob', 'same@example.com'); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (20, 1, 'new', 2)")
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        #expect(try everything(a) == everything(b))
        #expect(try rows(b, "SELECT count(*) FROM orders") == [[.integer(0)]])
        let lost = syncB.conflicts.value.sorted { $0.id < $1.id }
        #expect(lost.map(\.table) == ["customers", "orders"] && lost.filter { !$0.isLocal }.isEmpty, "\(lost)")
        #expect(lost.last?.rule == "FOREIGN KEY constraint failed")
        #expect(lost.last?.collidedWith.hasPrefix("insert customers [2] from this replica, which lost to insert customers [1]") == true, "\(lost.last?.collidedWith ?? "")")
        #expect(lost.last?.row?["customer_id"] == .integer(2))
        #expect(syncA.conflicts.value.isEmpty, "the log holds nothing A must reject")
    }

    @Test("an insert that a later pending delete makes fit here, but not where the log puts it, loses at its origin: B's new customer takes an email while the customer that A gives it is still deleted only on B (model seed 15)")
    func insertHiddenByALaterPendingChange() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "UPDATE customers SET email = 'new@example.com' WHERE id = 1")
        try await syncA.syncOnce()
        // B, not yet knowing A's change: a new customer with the email, then customer 1 deleted.
        try sqlite3(b.path, "INSERT INTO customers VALUES (2, 'Bob', 'new@example.com'); DELETE FROM customers WHERE id = 1")
        for client in [syncB, syncA, syncB] { try await client.syncOnce() }

        // The log: customer 1 takes the email, then B's insert (which breaks UNIQUE there), then
        // B's delete. B's insert loses on B, so it never reaches the log, and both agree.
        #expect(try everything(a) == everything(b))
        #expect(try rows(a, "SELECT count(*) FROM customers") == [[.integer(0)]])
        let lost = try #require(syncB.conflicts.value.first { $0.kind == .constraint })
        #expect(lost.isLocal && lost.operation == .insert && lost.key == [.integer(2)] && lost.rule == "UNIQUE constraint failed: customers.email")
        // A's email change met B's delete of customer 1: listed as a concurrent edit, not rejected.
        #expect(syncA.conflicts.value.filter { $0.kind != .concurrentEdit }.isEmpty, "the log holds nothing A must reject")
    }

    @Test("issue 39 report 1: a remote order for a customer deleted here, while another customer here took its email, is applied, not listed as lost to customers.email")
    func remoteInsertWhileSetAsideRowsCollide() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com'); INSERT INTO customers VALUES (2, 'Bob', 'bob@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        // B, pending: Bob renamed first (his row's first pending change), then Ann deleted, then
        // Bob takes Ann's email. A, meanwhile: a new order for Ann.
        try sqlite3(b.path, "UPDATE customers SET name = 'Robert' WHERE id = 2; DELETE FROM customers WHERE id = 1; UPDATE customers SET email = 'ann@example.com' WHERE id = 2")
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (10, 1, 'new', 1)")
        try await syncA.syncOnce()
        // B meets the order: its customer is deleted here. Set aside, B's changes must go back
        // to the log's rows in an order that collides with nothing (Bob's email first, then
        // Ann); restoring Ann first met Bob's new email, and the order was wrongly rejected.
        for client in [syncB, syncA, syncB] { try await client.syncOnce() }

        #expect(try everything(a) == everything(b))
        #expect(try rows(b, "SELECT id, customer_id FROM orders") == [[.integer(10), .null]], "B's later delete of Ann sets the order's customer to NULL, as on A")
        #expect(try rows(b, "SELECT id, email FROM customers") == [[.integer(2), .text("ann@example.com")]])
        #expect(syncB.conflicts.value.isEmpty, "\(syncB.conflicts.value)")
        #expect(syncA.conflicts.value.isEmpty, "\(syncA.conflicts.value)")
    }

    @Test("report 2: a delete of a customer and a new order for it, either arriving first: with ON DELETE SET NULL both stand when the order is first, and the order loses when the delete is", arguments: [false, true])
    func deleteAgainstNewReference(orderFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (7, 'Gus', 'gus@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 7")
        try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (900, 1, 'new', 7)")
        let order = orderFirst ? [syncB, syncA, syncB] : [syncA, syncB, syncA]
        for client in order { try await client.syncOnce() }

        #expect(try everything(a) == everything(b))
        #expect(try rows(a, "SELECT count(*) FROM customers") == [[.integer(0)]])
        if orderFirst {
            // The log says: the order, then the delete, whose SET NULL acts on it everywhere.
            #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(900), .null]])
            #expect(syncA.conflicts.value.isEmpty && syncB.conflicts.value.isEmpty)
        } else {
            #expect(try rows(a, "SELECT count(*) FROM orders") == [[.integer(0)]])
            let conflict = try #require(syncB.conflicts.value.first)
            #expect(conflict.isLocal && conflict.table == "orders" && conflict.row?["customer_id"] == .integer(7))
            #expect(conflict.rule == "FOREIGN KEY constraint failed")
        }
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
    }

    @Test("issue 39 report 1, second shape: B deletes a customer and inserts it again while A's new order for it goes first in the log; the delete's SET NULL reaches the order on B as on A and a late joiner")
    func deleteAndInsertAgainAfterANewReference() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (60, 'Gus', 'gus@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        // B, before it hears of A's order: the customer goes (its orders' references with it,
        // none here yet), and comes back.
        try sqlite3(b.path, "DELETE FROM customers WHERE id = 60; INSERT INTO customers VALUES (60, 'Gus again', NULL)")
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (901, 1, 'new', 60)")
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        // The log: the order, then B's delete (whose SET NULL acts on the order everywhere),
        // then B's insert.
        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(901), .null]])
        #expect(try everything(b) == everything(a))
        #expect(try rows(b, "SELECT name FROM customers") == [[.text("Gus again")]])
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncA.conflicts.value.isEmpty && syncB.conflicts.value.isEmpty, "\(syncA.conflicts.value) \(syncB.conflicts.value)")
    }

    @Test("a delete that a newer insert pending here outlives still sets NULL on the orders that reference the row, as on every replica that applies the log in order (seen by the chaos test)")
    func deleteUnderAPendingInsert() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncB = try b.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (29, 'first', NULL); INSERT INTO orders (id, purchase_num, status) VALUES (30, 1, 'new')")
        for client in [syncA, syncB, syncC] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 29")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(b.path, "INSERT INTO customers VALUES (29, 'from B', NULL)")
        try await syncB.syncOnce(); try await syncC.syncOnce()
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 29")               // older than A's insert
        try sqlite3(a.path, "INSERT INTO customers VALUES (29, 'from A', NULL)")  // A has not seen B's
        try sqlite3(b.path, "UPDATE orders SET customer_id = 29 WHERE id = 30")
        // The log: B's insert, B's reference, C's delete (its SET NULL acts on the order), A's insert.
        for client in [syncB, syncC, syncA, syncB, syncC] { try await client.syncOnce() }

        #expect(try rows(a, "SELECT customer_id FROM orders WHERE id = 30") == [[.null]])
        #expect(try everything(a) == everything(b))
        #expect(try everything(c) == everything(b))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(try rows(late, "SELECT name FROM customers") == [[.text("from A")]])
    }

    @Test("issue 39, chaos seed 7: B's pending move of an order to a customer C deleted loses, and the order goes back to what the log made it: NULL, from C's delete of the customer A had moved it to, which C made before it heard of the move, whether or not A inserted that customer again", arguments: [false, true])
    func lostMoveAfterAnUnseenReferencesDelete(oldCustomerBack: Bool) async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncB = try b.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'old', NULL), (2, 'new', NULL); INSERT INTO orders (id, purchase_num, status) VALUES (30, 1, 'new')")
        for client in [syncA, syncB, syncC] { try await client.syncOnce() }
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 1")
        try sqlite3(a.path, "UPDATE orders SET customer_id = 1 WHERE id = 30")
        try await syncA.syncOnce()
        // The log: A's move, then C's delete, whose SET NULL acts on the order everywhere but
        // is no change of C's own (C's order did not reference 1 when it deleted it).
        try await syncC.syncOnce()
        try await syncA.syncOnce()
        if oldCustomerBack {
            try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'old again', NULL)")
            try await syncA.syncOnce()
        }
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 2")
        try await syncC.syncOnce()
        // B heard of none of it: its move goes after C's second delete, and loses.
        try sqlite3(b.path, "UPDATE orders SET customer_id = 2 WHERE id = 30")
        for client in [syncB, syncA, syncC] { try await client.syncOnce() }

        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(30), .null]])
        #expect(try everything(b) == everything(a))
        #expect(try everything(c) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncB.conflicts.value.map(\.operation) == [.update], "\(syncB.conflicts.value)")
    }

    @Test("issue 39, chaos seed 2 with faults: C deletes customer 2 (its order goes to NULL), inserts a new customer 2 with an email A gave another customer first, and moves the order to a customer A deletes; the move and the new customer lose on C, but C's delete stands and reaches the log, so the order is NULL everywhere")
    func deleteBeforeALosingInsertStands() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (2, 'two', 'c0@example.com'), (15, 'fifteen', NULL); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (105, 1, 'new', 2)")
        for client in [syncA, syncC] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 15")
        try sqlite3(a.path, "INSERT INTO customers VALUES (26, 'twenty-six', 'c3@example.com')")
        try await syncA.syncOnce()
        // C, before it hears of A's two changes: its delete sets the order to NULL, and the
        // move overwrites that NULL in the order's register.
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 2")
        try sqlite3(c.path, "INSERT INTO customers VALUES (2, 'two again', 'c3@example.com')")
        try sqlite3(c.path, "UPDATE orders SET customer_id = 15 WHERE id = 105")
        // The log: A's delete and insert, then C's delete; C's insert and move no longer fit.
        for client in [syncC, syncA] { try await client.syncOnce() }

        let expected = ["customers 26 | 'twenty-six' | 'c3@example.com'", "orders 105 | NULL"]
        let rowsA = try everything(a)
        #expect(rowsA.map(Self.withoutOrderDetails) == expected, "\(syncC.conflicts.value)")
        #expect(try everything(c) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(Set(syncC.conflicts.value.map(\.operation)) == [.insert, .update], "\(syncC.conflicts.value)")
    }

    @Test("issue 39, chaos seed 193 with faults: the log's delete of customer 7 sets order 20 to NULL as a foreign key action that no entry names; A, whose older delete of the order is pending, sets the order aside after customer 7 is back, and keeps NULL as every replica that applies the log does (before, it brought back customer 7)")
    func actionOfTheLogOutlivesSettingAside() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a")
        let syncA = try a.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'one', 'c1@example.com'), (7, 'seven', NULL)")
        try await syncA.syncOnce()
        // A, before it hears of the others: order 20 inserted and deleted again (the delete stays
        // pending), and a new customer with the email another replica gives customer 1, which A
        // deletes: that insert loses when A's pending changes are replayed after the log, and the
        // replay's rows are kept.
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (20, 1, 'new'); DELETE FROM orders WHERE id = 20")
        try sqlite3(a.path, "INSERT INTO customers VALUES (2, 'two', 'new@example.com'); DELETE FROM customers WHERE id = 1")
        // Meanwhile in the log, stamped after A's changes: B gives customer 1 the email and
        // inserts order 20 for customer 7; C, which never had order 20, deletes customer 7 (the
        // order's reference goes to NULL wherever the log is applied in order, though no entry
        // says so) and inserts it again.
        let later = (Int64(Date().timeIntervalSince1970 * 1000) + 60_000) << 16
        try ServerLogOracle(url: url).append([
            ("b", 1, later, "customers", #"[{"i":1}]"#, "update", "email", #"{"t":"new@example.com"}"#),
            ("b", 2, later + 1, "orders", #"[{"i":20}]"#, "insert", nil,
             #"{"created_at":{"r":"1795700000.5"},"customer_id":{"i":7},"id":{"i":20},"note":null,"purchase_num":{"i":5},"status":{"t":"new"},"updated_at":null}"#),
            ("c", 1, later + 2, "customers", #"[{"i":7}]"#, "delete", nil, nil),
            ("c", 2, later + 3, "customers", #"[{"i":7}]"#, "insert", nil, #"{"email":null,"id":{"i":7},"name":{"t":"seven again"}}"#),
        ])
        try await syncA.syncOnce()

        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(20), .null]], "\(syncA.conflicts.value)")
        #expect(try rows(a, "SELECT id, name FROM customers") == [[.integer(7), .text("seven again")]])
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        let rowsLate = try everything(late), rowsA = try everything(a)
        #expect(rowsLate == rowsA, "late \(rowsLate) A \(rowsA)")
        #expect(syncA.conflicts.value.filter { $0.kind == .constraint }.map(\.key) == [[.integer(2)]], "A's new customer 2 loses to customer 1's email: \(syncA.conflicts.value)")
    }

    @Test("issue 39, chaos seed 31 with faults: A deletes customer 25 and inserts it again; C's delete and insert of 25 come between by their stamps; A's new row loses to another customer's email, and 25 is C's row on A, as in the log (before, A's older delete stood and A refused C's orders for 25)")
    func losingInsertAfterAnOlderDeleteLeavesTheLogsLaterInsert() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncB = try b.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (25, 'first', 'c11@example.com')")
        for client in [syncA, syncB, syncC] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 25")
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 25; INSERT INTO customers VALUES (25, 'from C', 'c15@example.com')")
        try await syncC.syncOnce()
        try sqlite3(a.path, "INSERT INTO customers VALUES (25, 'from A', 'c14@example.com')")
        try sqlite3(b.path, "INSERT INTO customers VALUES (6, 'six', 'c14@example.com')")
        try await syncB.syncOnce()
        // The log: C's delete and insert of 25 (later than A's delete), B's customer 6 with the
        // email of A's insert (later than C's), which loses; A's delete then acts on nothing.
        try await syncA.syncOnce()
        try sqlite3(c.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (89, 1, 'new', 25)")
        for client in [syncC, syncA, syncB] { try await client.syncOnce() }

        #expect(try rows(a, "SELECT id, name FROM customers ORDER BY id") == [[.integer(6), .text("six")], [.integer(25), .text("from C")]])
        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(89), .integer(25)]], "\(syncA.conflicts.value)")
        #expect(try everything(b) == everything(a))
        #expect(try everything(c) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncA.conflicts.value.map(\.operation) == [.insert], "A's insert of 25 loses, nothing else: \(syncA.conflicts.value)")
    }

    @Test("issue 39, chaos seed 24 with faults: A deletes customer 2 (its SET NULL on order 15 is a pending change of A's own), inserts it again and moves the order to customer 13, which B deletes first in the log; the move loses, and the order keeps the NULL A's delete gave it, as where the outbox is replayed entry by entry (before, the order went back to customer 2 on A only)")
    func anEarlierPendingChangeOfAColumnStandsWhenALaterOneLoses() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (2, 'two', NULL), (13, 'thirteen', NULL); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (15, 1, 'new', 2)")
        for client in [syncA, syncB] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 2")
        try sqlite3(a.path, "INSERT INTO customers VALUES (2, 'two again', NULL)")
        try sqlite3(a.path, "UPDATE orders SET customer_id = 13 WHERE id = 15")
        try sqlite3(b.path, "DELETE FROM customers WHERE id = 13")
        try await syncB.syncOnce()
        // The log: B's delete of 13, then A's delete of 2, its NULL for the order, A's new 2;
        // A's move to 13 no longer fits.
        for client in [syncA, syncB] { try await client.syncOnce() }

        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(15), .null]], "\(syncA.conflicts.value)")
        #expect(try everything(b) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncA.conflicts.value.map(\.column) == ["customer_id"], "only the move loses: \(syncA.conflicts.value)")
    }

    @Test("issue 39, chaos seed 183 with faults: B moves order 56 to customer 27 and deletes customer 5; A moved it to 5 first in the log and deletes 27; B's move loses, and once B's delete passes in the log the order's server state holds the NULL its SET NULL made everywhere else, so a later insert of the order from the log fits on B as on every replica (before, B refused it: its server state still named customer 5)")
    func ownDeletesActionBecomesTheServerState() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (5, 'five', NULL), (18, 'eighteen', NULL), (27, 'twenty-seven', NULL); INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (56, 1, 'new', 18)")
        for client in [syncA, syncB] { try await client.syncOnce() }
        try sqlite3(a.path, "UPDATE orders SET customer_id = 5 WHERE id = 56")
        try await syncA.syncOnce()
        // B, before it hears of A's move: its own move (stamped later) and its delete of 5.
        try sqlite3(b.path, "UPDATE orders SET customer_id = 27 WHERE id = 56; DELETE FROM customers WHERE id = 5")
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 27")
        try await syncA.syncOnce()
        // B applies A's move and A's delete of 27: its move loses, the order takes A's 5, which
        // B's pending delete removed here; B's delete then goes up, after A's move in the log,
        // where its SET NULL acts on the order.
        try await syncB.syncOnce()
        try await syncB.syncOnce()
        try await syncA.syncOnce()
        #expect(try rows(a, "SELECT customer_id FROM orders WHERE id = 56") == [[.null]])
        #expect(try rows(b, "SELECT customer_id FROM orders WHERE id = 56") == [[.null]])
        // C's insert of the order, stamped between its first insert and A's move: the move is
        // later, so the row takes the move's column, which the log's delete of 5 set to NULL.
        let stamps = try rows(a, "SELECT col, hlc FROM _signalstore_sync_stamps WHERE tbl = 'orders' AND row_key = '[{\"i\":56}]' AND col IN ('#insert', 'customer_id') ORDER BY col")
        let inserted = try #require(stamps.first { $0[0] == .text("#insert") }?[1].integerValue)
        let moved = try #require(stamps.first { $0[0] == .text("customer_id") }?[1].integerValue)
        try #require(inserted + 1 < moved)
        try ServerLogOracle(url: url).append([
            ("c", 1, inserted + 1, "orders", #"[{"i":56}]"#, "insert", nil,
             #"{"created_at":{"r":"1795700000.5"},"customer_id":{"i":18},"id":{"i":56},"note":null,"purchase_num":{"i":7},"status":{"t":"new"},"updated_at":null}"#),
        ])
        for client in [syncB, syncA] { try await client.syncOnce() }

        #expect(try rows(b, "SELECT purchase_num, customer_id FROM orders WHERE id = 56") == [[.integer(7), .null]], "\(syncB.conflicts.value)")
        #expect(try everything(b) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncB.conflicts.value.map(\.column) == ["customer_id"], "only B's move loses: \(syncB.conflicts.value)")
        #expect(syncA.conflicts.value.isEmpty, "\(syncA.conflicts.value)")
    }

    @Test("issue 39, chaos seed 71 with faults: C deletes customer 10 and inserts it again; A's delete of 10 is older than C's and A's insert of it newer, so where the log puts C's delete it acts on nothing; when C's row is set aside for a new customer with C's email, C's delete is not applied again and clears no order's reference (before, its SET NULL cleared B's order on C, and went up as C's change)")
    func anOlderPendingDeleteUnderAPendingInsertDoesNotActAgain() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncB = try b.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (10, 'ten', 'c10@example.com')")
        for client in [syncA, syncB, syncC] { try await client.syncOnce() }
        // By their stamps: A's delete, then C's delete, then A's insert, then C's insert.
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 10")
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 10")
        try sqlite3(a.path, "INSERT INTO customers VALUES (10, 'ten from A', 'a10@example.com')")
        try await syncA.syncOnce()
        try sqlite3(c.path, "INSERT INTO customers VALUES (10, 'ten from C', 'c5@example.com')")
        try await syncB.syncOnce()
        try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (114, 1, 'new', 10); INSERT INTO customers VALUES (3, 'three', 'c5@example.com')")
        try await syncB.syncOnce()
        // C applies them all: B's customer 3 takes C's email, C's row is set aside and its
        // insert loses; the row is A's, as in the log, and B's order keeps customer 10.
        for client in [syncC, syncA, syncB] { try await client.syncOnce() }

        #expect(try rows(c, "SELECT id, customer_id FROM orders") == [[.integer(114), .integer(10)]], "\(syncC.conflicts.value)")
        #expect(try rows(c, "SELECT name FROM customers WHERE id = 10") == [[.text("ten from A")]])
        #expect(try everything(c) == everything(a))
        #expect(try everything(b) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncC.conflicts.value.map(\.operation) == [.insert], "only C's insert of 10 loses: \(syncC.conflicts.value)")
    }

    @Test("issue 39, chaos seed 121 with faults: B sets customer 9's email to NULL, C deletes 9 and inserts it again with a later stamp, then B gives 9 an email A's customer 1 takes first in the log; B's new email loses, and its older NULL does not stand either: C's insert is the row's latest incarnation, so the email is the insert's, as on every replica (before, B kept NULL)")
    func anEarlierPendingChangeOlderThanTheLatestInsertDoesNotStand() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncB = try b.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'one', 'c1@example.com'), (9, 'nine', 'c9@example.com')")
        for client in [syncA, syncB, syncC] { try await client.syncOnce() }
        try sqlite3(b.path, "UPDATE customers SET email = NULL WHERE id = 9")
        try sqlite3(c.path, "DELETE FROM customers WHERE id = 9; INSERT INTO customers VALUES (9, 'nine from C', 'c4@example.com')")
        try await syncC.syncOnce()
        try sqlite3(b.path, "UPDATE customers SET email = 'c16@example.com' WHERE id = 9")
        try sqlite3(a.path, "UPDATE customers SET email = 'c16@example.com' WHERE id = 1")
        try await syncA.syncOnce()
        // B applies C's delete and insert of 9, then A's email for customer 1, which B's newer
        // email for 9 meets: it loses, and B's older NULL is older than C's insert.
        for client in [syncB, syncA, syncC] { try await client.syncOnce() }

        #expect(try rows(b, "SELECT name, email FROM customers WHERE id = 9") == [[.text("nine from C"), .text("c4@example.com")]], "\(syncB.conflicts.value)")
        #expect(try everything(b) == everything(a))
        #expect(try everything(c) == everything(a))
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
        #expect(syncB.conflicts.value.map(\.column) == ["email"], "only B's new email loses: \(syncB.conflicts.value)")
    }

    @Test("issue 39, chaos seed 7 with faults: A deleted and inserted again customer 6, whose email the log holds, and gave that email to customer 8, which it inserted, deleted and inserted again before uploading; B's order for customer 6 is applied on A (before, setting A's pending rows aside left out customer 8, and A refused B's order with customers' UNIQUE rule)")
    func pendingRowDeletedAndInsertedAgainBeforeTheServerHadIt() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (6, 'six', 'c12@example.com')")
        for client in [syncA, syncB] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 6")
        try sqlite3(a.path, "INSERT INTO customers VALUES (6, 'six again', 'c11@example.com')")
        try sqlite3(a.path, "INSERT INTO customers VALUES (8, 'eight', 'c7@example.com')")
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 8")
        try sqlite3(a.path, "INSERT INTO customers VALUES (8, 'eight again', 'c12@example.com')")
        try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (59, 1, 'new', 6)")
        try await syncB.syncOnce()
        // The log: B's order for customer 6, then A's delete of 6 (which sets the order to
        // NULL), A's new 6 and A's 8, which all fit.
        for client in [syncA, syncB] { try await client.syncOnce() }

        let rowsA = try everything(a)
        #expect(rowsA.map(Self.withoutOrderDetails) == [
            "customers 6 | 'six again' | 'c11@example.com'", "customers 8 | 'eight again' | 'c12@example.com'", "orders 59 | NULL",
        ])
        #expect(try everything(b) == rowsA)
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == rowsA)
        #expect(syncA.conflicts.value.isEmpty && syncB.conflicts.value.isEmpty, "\(syncA.conflicts.value) \(syncB.conflicts.value)")
    }

    @Test("issue 39, chaos seed 10 with faults: A deleted customer 19, inserted it again and inserted order 15 for it; C's later insert of order 15 for customer 19 comes first in the log and stands on A too, where A's own order 15 was set aside under it and, applied again, overwrote it")
    func pendingInsertSetAsideUnderALaterInsertOfItsRow() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), c = try replica(folder, "c")
        let syncA = try a.client(url), syncC = try c.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (19, 'nineteen', NULL)")
        for client in [syncA, syncC] { try await client.syncOnce() }
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 19")
        try sqlite3(a.path, "INSERT INTO customers VALUES (19, 'nineteen again', NULL)")
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (15, 1, 'from a', 19)")
        // Stamped later than A's: C's insert of order 15 is the row's latest incarnation.
        try sqlite3(c.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (15, 2, 'from c', 19)")
        // The log: C's order, then A's delete of 19 (which sets it to NULL), A's 19 and A's
        // order 15, older than C's.
        for client in [syncC, syncA, syncC] { try await client.syncOnce() }

        let rowsA = try everything(a)
        #expect(try rows(a, "SELECT id, purchase_num, status, customer_id FROM orders") == [[.integer(15), .integer(2), .text("from c"), .null]])
        #expect(try everything(c) == rowsA)
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == rowsA)
    }

    /// An `orders` line of ``everything(_:)`` as its id and customer only.
    static func withoutOrderDetails(_ line: String) -> String {
        guard line.hasPrefix("orders ") else { return line }
        let cells = line.dropFirst("orders ".count).components(separatedBy: " | ")
        return "orders \(cells[0]) | \(cells.last ?? "")"
    }

    @Test("issue 39, chaos seed 25: B moves one email from customer 21 to 11 and a new one to 21, while A gave 11 that new one first; B's pending changes cannot go back one at a time (each holds the other's server value), yet both lose on B as in the log, and a late joiner agrees")
    func pendingSwapThatLosesAsAWhole() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (11, 'eleven', 'c1@example.com'), (21, 'twenty-one', 'c13@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "UPDATE customers SET email = 'c17@example.com' WHERE id = 11")
        // Later stamps than A's: on B, A's change of 11 loses to B's by the registers, and
        // meets nothing when it arrives.
        try sqlite3(b.path, "UPDATE customers SET email = 'c17@example.com' WHERE id = 21")
        try sqlite3(b.path, "UPDATE customers SET email = 'c13@example.com' WHERE id = 11")
        // The log: A's change, then B's two, which no longer fit (c17 is 11's) and lose.
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        let expected = ["customers 11 | 'eleven' | 'c17@example.com'", "customers 21 | 'twenty-one' | 'c13@example.com'"]
        #expect(try everything(a) == expected)
        #expect(try everything(b) == expected)
        let late = try replica(folder, "late"), syncLate = try late.client(url)
        try await syncLate.syncOnce()
        #expect(try everything(late) == expected)
        #expect(syncLate.conflicts.value.isEmpty, "\(syncLate.conflicts.value)")
        #expect(syncB.conflicts.value.map(\.isLocal) == [true, true], "\(syncB.conflicts.value)")
        #expect(syncA.conflicts.value.isEmpty, "\(syncA.conflicts.value)")
    }

    @Test("issue 39, chaos seed 24: B's pending new email for a customer that A deleted and inserted again loses where the log puts it (after A gave that email to another customer), instead of B refusing A's insert")
    func pendingColumnOfARowInsertedAgain() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (25, 'first', 'c0@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "DELETE FROM customers WHERE id = 25")
        try sqlite3(a.path, "INSERT INTO customers VALUES (7, 'seven', 'c18@example.com')")
        try sqlite3(a.path, "INSERT INTO customers VALUES (25, 'again', 'c2@example.com')")
        // Stamped after A's three: by the registers it outlives A's insert of 25.
        try sqlite3(b.path, "UPDATE customers SET email = 'c18@example.com' WHERE id = 25")
        // The log: A's delete, A's two inserts, then B's update, which no longer fits.
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        let expected = ["customers 7 | 'seven' | 'c18@example.com'", "customers 25 | 'again' | 'c2@example.com'"]
        #expect(try everything(a) == expected)
        #expect(try everything(b) == expected)
        let late = try replica(folder, "late"), syncLate = try late.client(url)
        try await syncLate.syncOnce()
        #expect(try everything(late) == expected)
        #expect(syncLate.conflicts.value.isEmpty && syncA.conflicts.value.isEmpty, "\(syncLate.conflicts.value) \(syncA.conflicts.value)")
        #expect(syncB.conflicts.value.map(\.isLocal) == [true], "\(syncB.conflicts.value)")
    }

    @Test("setting rows aside tries a row that meets another on the way again after the others: B deleted Ann, then gave her email to Bob, deleted and inserted again; A's order for Ann stands on both, and B's delete sets it to NULL (seen by the chaos test)")
    func setAsideRetriesARowThatMeetsAnother() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO customers VALUES (1, 'Ann', 'v@example.com'), (2, 'Bob', 'w@example.com')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(b.path, "DELETE FROM customers WHERE id = 1; DELETE FROM customers WHERE id = 2; INSERT INTO customers VALUES (2, 'Bob', 'v@example.com')")
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (902, 1, 'new', 1)")
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }

        #expect(try rows(a, "SELECT id, customer_id FROM orders") == [[.integer(902), .null]])
        #expect(try everything(b) == everything(a))
        #expect(syncA.conflicts.value.isEmpty && syncB.conflicts.value.isEmpty, "\(syncA.conflicts.value) \(syncB.conflicts.value)")
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
    }

    @Test("ON DELETE RESTRICT: a delete and a new reference, either first: the later one loses and is listed by its origin", arguments: [false, true])
    func restrictedDelete(lineFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'new')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "INSERT INTO lines VALUES (10, 1, 'a line')")
        try sqlite3(b.path, "DELETE FROM orders WHERE id = 1")
        let order = lineFirst ? [syncA, syncB, syncA] : [syncB, syncA, syncB]
        for client in order { try await client.syncOnce() }

        #expect(try everything(a) == everything(b))
        if lineFirst {
            #expect(try rows(a, "SELECT id FROM lines") == [[.integer(10)]])
            #expect(try rows(a, "SELECT id FROM orders") == [[.integer(1)]])
            #expect(syncB.conflicts.value.map(\.operation) == [.delete], "the delete lost on its origin")
        } else {
            #expect(try rows(a, "SELECT count(*) FROM lines") == [[.integer(0)]])
            #expect(try rows(a, "SELECT count(*) FROM orders") == [[.integer(0)]])
            #expect(syncA.conflicts.value.map(\.table) == ["lines"], "the line lost on its origin")
        }
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == everything(a))
    }

    @Test("CHECK across two columns merged from two replicas: the later change loses, and the row stays valid everywhere")
    func checkAcrossColumns() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO ranges VALUES (1, 0, 10)")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "UPDATE ranges SET lo = 8 WHERE id = 1")
        try sqlite3(b.path, "UPDATE ranges SET hi = 5 WHERE id = 1")   // each valid alone, not together
        for client in [syncA, syncB, syncA] { try await client.syncOnce() }
        #expect(try rows(a, "SELECT lo, hi FROM ranges") == [[.integer(8), .integer(10)]])
        #expect(try everything(a) == everything(b))
        #expect(syncB.conflicts.value.first?.rule == "CHECK constraint failed: lo <= hi")
    }

    @Test("the CLI lists conflicts (table and --json), re-applies one with a fix, and discards one; bad ids get one line")
    func conflictsFromTheCLI() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        try sqlite3(a.path, "INSERT INTO customers VALUES (101, 'Ann', 'same@example.com'); INSERT INTO customers VALUES (103, 'Di', 'di@example.com')")
        try sqlite3(b.path, "INSERT INTO customers VALUES (102, 'Bob', 'same@example.com'); INSERT INTO customers VALUES (104, 'Ed', 'di@example.com')")
        for path in [a.path, b.path, a.path] {
            let run = try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--db", path])
            #expect(run.status == 0, "\(run.error)")
        }
        let listed = try runProgram(signalstore, ["sync", "conflicts", "--db", b.path])
        #expect(listed.status == 0, "\(listed.error)")
        let lines = listed.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id  change  row") == true, "\(listed.output)")
        #expect(lines.count == 4 && lines[1].contains("customers 102") && lines[1].contains("this replica") && lines[1].contains("UNIQUE constraint failed: customers.email"), "\(listed.output)")
        let json = try runProgram(signalstore, ["sync", "conflicts", "--json", "--db", b.path])
        let objects = try json.output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["key"] as? [Int] } == [[102], [104]] && objects.allSatisfy { $0["local"] as? Bool == true })
        #expect((objects.first?["row"] as? [String: Any])?["name"] as? String == "Bob")

        let stillBroken = try runProgram(signalstore, ["sync", "conflicts", "--reapply", "1", "--db", b.path])
        #expect(stillBroken.status == 1 && stillBroken.error == "error: conflict #1 cannot be re-applied: UNIQUE constraint failed: customers.email; change the row (signalstore sync conflicts --reapply 1 --set COLUMN=VALUE), or discard it\n", "\(stillBroken.error)")
        let fixed = try runProgram(signalstore, ["sync", "conflicts", "--reapply", "1", "--set", "email=bob@example.com", "--db", b.path])
        #expect(fixed.output == "re-applied conflict #1 as a local change; the next sync uploads it\n", "\(fixed.error)")
        let discarded = try runProgram(signalstore, ["sync", "conflicts", "--discard", "2", "--db", b.path])
        #expect(discarded.output == "discarded conflict #2\n", "\(discarded.error)")
        let unknown = try runProgram(signalstore, ["sync", "conflicts", "--discard", "2", "--db", b.path])
        #expect(unknown.status == 1 && unknown.error == "error: there is no conflict #2 in this database; list them with `signalstore sync conflicts`\n")
        #expect(try runProgram(signalstore, ["sync", "conflicts", "--db", b.path]).output == "no conflicts\n")
        for path in [b.path, a.path] { _ = try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--db", path]) }
        #expect(try a.contents() == b.contents())
        #expect(try a.contents().filter { $0.hasPrefix("customers") }.count == 3)
    }
}

@Suite("Sync: a model-based test with constraints", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct ConstraintModelTests {
    /// Six seeds in a plain run; sixty with `SIGNALSTORE_HEAVY=1` (about a second each).
    static let seeds: [UInt64] = Array(11...(ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1" ? 70 : 16))

    @Test("3 replicas and a late joiner: random inserts, updates, deletes, UNIQUE collisions, deletes of referenced rows and new references, partitions and cancelled syncs; all end equal, every constraint holds, no replica rejects a change from the log, and every lost insert is listed by its origin", arguments: ConstraintModelTests.seeds)
    func randomWritesWithConstraints(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try (0..<3).map { try Replica(folder, "r\($0)", migrations: ConstraintTests.migrations) }
        let clients = try replicas.map { try $0.client(url) }
        var inserted: [(replica: Int, table: String, id: Int64)] = []
        var deletedByAnyone: Set<String> = []
        for step in 0..<150 {
            let index = Int.random(in: 0..<3, using: &random)
            let store = replicas[index].store
            let id = Int64.random(in: 1...6, using: &random)
            let email = "e\(Int.random(in: 1...4, using: &random))@example.com"   // few emails: collisions
            do {
                switch Int.random(in: 0..<12, using: &random) {
                case 0...2:
                    let newID = Int64(step + 100)
                    try store.execute("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", arguments: [.integer(newID), .text("c\(step)"), .text(email)])
                    inserted.append((index, "customers", newID))
                case 3:
                    try store.execute("UPDATE customers SET email = ? WHERE id = (SELECT id FROM customers ORDER BY id LIMIT 1 OFFSET ?)", arguments: [.text(email), .integer(id % 3)])
                case 4:
                    if let row = try store.readConnection({ try $0.statement("SELECT id FROM customers ORDER BY id LIMIT 1 OFFSET ?").rows([.integer(id % 3)]).first }) {
                        try store.execute("DELETE FROM customers WHERE id = ?", arguments: [row[0]])
                        deletedByAnyone.insert("customers \(row[0])")
                    }
                case 5...6:
                    let newID = Int64(step + 1000)
                    let customer = try store.readConnection { try $0.scalar("SELECT id FROM customers ORDER BY id LIMIT 1 OFFSET ?", [.integer(id % 3)]) } ?? .null
                    try store.execute("INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (?, ?, 'new', ?)", arguments: [.integer(newID), .integer(id), customer])
                    inserted.append((index, "orders", newID))
                case 7:
                    try store.execute("UPDATE orders SET status = ? WHERE id = (SELECT id FROM orders ORDER BY id LIMIT 1 OFFSET ?)", arguments: [.text("s\(step)"), .integer(id % 3)])
                case 8:
                    try await clients[index].syncOnce()
                case 9:
                    // A sync cut short: cancelled at some point of its way (after a random number
                    // of turns of the scheduler; any point is a valid test, none needs a clock).
                    let task = Task { try await clients[index].syncOnce() }
                    for _ in 0..<Int.random(in: 0...40, using: &random) { await Task.yield() }
                    task.cancel()
                    _ = try? await task.value
                default:
                    for client in clients.shuffled(using: &random).prefix(2) { try await client.syncOnce() }   // a partial partition heals
                }
            } catch let error as StoreError {
                // A local write that breaks a constraint locally is refused, as without sync.
                guard case .sqlite(let sqlite) = error, sqlite.code == SQLiteError.constraint else { throw error }
            }
        }
        for _ in 0..<3 { for client in clients { try await client.syncOnce() } }
        let late = try Replica(folder, "late", migrations: ConstraintTests.migrations)
        try await late.client(url).syncOnce()

        let contents = try (replicas + [late]).map { replica in
            try ["customers", "orders"].flatMap { table in
                try replica.store.readConnection { try $0.statement("SELECT * FROM \(table) ORDER BY 1").rows() }.map { "\(table) \($0)" }
            }
        }
        for index in 1..<4 { #expect(contents[index] == contents[0], "seed \(seed), replica \(index)") }
        // The log holds only changes that fit where they are: no replica rejects another's.
        // (Concurrent edits are listed, not rejected.)
        for (index, client) in clients.enumerated() {
            let rejected = client.conflicts.value.filter { !$0.isLocal && $0.kind != .concurrentEdit }
            #expect(rejected.isEmpty, "seed \(seed): replica \(index) rejected a change from the log: \(rejected)")
        }
        for replica in replicas + [late] {
            #expect(try replica.store.readConnection { try $0.statement("PRAGMA foreign_key_check").rows() }.isEmpty, "seed \(seed)")
        }
        // Every insert that is not there was deleted by someone, or lost and is listed by its origin.
        let present = Set(contents[0].map { $0.split(separator: " ").prefix(2).joined(separator: " ").replacingOccurrences(of: "[", with: "").replacingOccurrences(of: ",", with: "") })
        for insert in inserted {
            let name = "\(insert.table) \(insert.id)"
            let listed = clients[insert.replica].conflicts.value.contains { $0.isLocal && $0.table == insert.table && $0.key == [.integer(insert.id)] }
            #expect(present.contains(name) || deletedByAnyone.contains(name) || listed, "seed \(seed): \(name) from replica \(insert.replica) is missing and not listed")
        }
    }
}
#endif
