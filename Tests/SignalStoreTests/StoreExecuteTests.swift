import Foundation
import Testing
@testable import SignalStore

/// `store.execute` without arguments keeps a one-statement SQL prepared among the last few it
/// ran: running it again must behave exactly as a fresh statement would, across schema changes,
/// failures and scripts.
@Suite("store.execute keeps one statement prepared")
struct StoreExecuteTests {
    @Test("the same statement run again writes and journals again", arguments: StoreKind.allCases)
    func theSameStatementRunsAgain(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 0, 'open')")
        let feed = store.changes().record()
        for _ in 0..<3 { try store.execute("UPDATE orders SET purchase_num = purchase_num + 1 WHERE id = 1") }
        #expect(try rows(store, "SELECT purchase_num FROM orders") == [[.integer(3)]])
        #expect(feed.values.map(\.operation) == [.update, .update, .update])
        store.close()
    }

    @Test("a kept statement runs against the schema as it is now")
    func aKeptStatementSeesASchemaChange() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("CREATE TABLE counters (id INTEGER PRIMARY KEY, start INTEGER DEFAULT 1)")
        try store.execute("INSERT INTO counters DEFAULT VALUES")
        try store.execute("DROP TABLE counters")
        try store.execute("CREATE TABLE counters (id INTEGER PRIMARY KEY, start INTEGER DEFAULT 7)")
        try store.execute("INSERT INTO counters DEFAULT VALUES")   // kept, but prepared again by SQLite
        #expect(try rows(store, "SELECT id, start FROM counters ORDER BY id") == [[.integer(1), .integer(7)]])
        try store.execute("DROP TABLE counters")
        let error = #expect(throws: StoreError.self) { try store.execute("INSERT INTO counters DEFAULT VALUES") }
        #expect(error?.description.contains("no such table: counters") == true, "\(String(describing: error))")
        store.close()
    }

    @Test("a statement that fails writes nothing, and runs when it can")
    func aFailingStatementWritesNothing() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let feed = store.changes().record()
        let insert = "INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'open')"
        try store.execute(insert)
        #expect(throws: StoreError.self) { try store.execute(insert) }   // the key is taken now
        try store.execute("DELETE FROM orders WHERE id = 2")
        try store.execute(insert)
        #expect(try rows(store, "SELECT id FROM orders ORDER BY id") == [[.integer(1)], [.integer(2)]])
        #expect(feed.values.map(\.operation) == [.insert, .delete, .insert])
        store.close()
    }

    @Test("an error names the statement on one line, as in a script")
    func anErrorNamesTheStatementOnOneLine() throws {
        let (store, folder) = try makeStore(.inMemory)
        defer { withExtendedLifetime(folder) {} }
        for sql in ["\n  UPDATE nowhere SET a = 1;\n", "\n  INSERT INTO orders (id) VALUES (1);\n"] {
            let alone = #expect(throws: StoreError.self) { try store.execute(sql) }
            let inScript = #expect(throws: StoreError.self) { try store.execute("SELECT 1;" + sql) }
            #expect(alone?.description == inScript?.description)
            #expect(alone?.description.contains("\n") == false, "\(String(describing: alone))")
        }
        store.close()
    }

    @Test("more statements than are kept, then the first again; and scripts of several")
    func manyStatementsAndScripts() throws {
        let (store, folder) = try makeStore(.inMemory)
        defer { withExtendedLifetime(folder) {} }
        let inserts = (1...Connection.lastExecutedLimit + 2).map { "INSERT INTO orders (id, purchase_num, status) VALUES (\($0), \($0), 'open')" }
        for insert in inserts { try store.execute(insert) }
        try store.execute("DELETE FROM orders WHERE id = 1")
        try store.execute(inserts[0])
        try store.execute("UPDATE orders SET status = 'paid' WHERE id = 1; UPDATE orders SET status = 'a;b' WHERE id = 2;")
        #expect(try rows(store, "SELECT count(*) FROM orders") == [[.integer(Int64(inserts.count))]])
        #expect(try rows(store, "SELECT status FROM orders WHERE id <= 3 ORDER BY id") == [[.text("paid")], [.text("a;b")], [.text("open")]])
        store.close()
    }

    @Test("which SQL is one statement by a look at its bytes")
    func oneStatementByItsBytes() {
        for one in ["UPDATE t SET a = 1", "  update t set a = 1 ;\n", "INSERT INTO t VALUES (1) -- a note", "\tDELETE FROM t;"] {
            #expect(SQLScript.isOneStatement(one), "\(one)")
        }
        // Not certainly one: several, a `;` inside a string, a leading comment, nothing.
        for other in ["UPDATE t SET a = 1; UPDATE t SET a = 2", "UPDATE t SET a = 'x;y'", "-- note\nUPDATE t SET a = 1", "/* x */ UPDATE t SET a = 1", "", " ; ", "UPDATE t SET a = 1; -- done"] {
            #expect(!SQLScript.isOneStatement(other), "\(other)")
        }
    }
}
