import Foundation
import SignalStoreTestSupport
@testable import SignalStoreTesting

/// The message of the one issue `body` records, which is expected to fail.
func failure(_ body: () async throws -> Void) async throws -> String? {
    let message = Locked<String?>(nil)
    try await withKnownIssue {
        try await body()
    } matching: { issue in
        message.withLock { $0 = issue.comments.map(\.rawValue).joined(separator: "\n") }
        return true
    }
    return message.withLock { $0 }
}

@Suite("expectChanges: exhaustive, in order, with a readable diff", .ownThread)
struct ExpectChangesTests {
    private func paidOrder() throws -> (TestStore, Order) {
        let store = try TestStore(migrations: packageMigrations)
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)
        return (store, order)
    }

    @Test func theExactEntriesPass() async throws {
        let (store, order) = try paidOrder()
        try await store.expectChanges([
            .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
            .insert("orders", id: 43, ["status": "new", "purchase_num": 2]),
            .delete(Order.self, id: 43),
        ]) {
            order.purchaseNum = 3
            try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (43, 2, 'new')")
            try store.execute("DELETE FROM orders WHERE id = 43")
        }
        try await store.expectNoChanges { order.purchaseNum = 3 }
    }

    @Test func anExtraEntryFailsNamingIt() async throws {
        let (store, order) = try paidOrder()
        let message = try await failure {
            try await store.expectChanges([.update(\Order.purchaseNum, id: 42, from: 1, to: 3)]) {
                order.purchaseNum = 3
                order.status = "paid"
            }
        }
        #expect(message?.hasPrefix("the change feed has an unexpected entry 2 (expected 1 entry, 2 arrived): update orders id=42 status 'open' → 'paid'") == true, "\(message ?? "no failure")")
        #expect(message?.contains("  → 2  (none)") == true, "\(message ?? "")")
    }

    @Test func aMissingEntryFailsNamingIt() async throws {
        let (store, order) = try paidOrder()
        let message = try await failure {
            try await store.expectChanges([
                .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
                .update(\Order.status, id: 42, from: "open", to: "paid"),
            ]) {
                order.purchaseNum = 3
            }
        }
        #expect(message?.hasPrefix("the change feed is missing entry 2 (expected 2 entries, 1 arrived): update orders id=42 status 'open' → 'paid'") == true, "\(message ?? "no failure")")
    }

    @Test func reorderedEntriesFailAtTheFirst() async throws {
        let (store, order) = try paidOrder()
        let message = try await failure {
            try await store.expectChanges([
                .update(\Order.status, id: 42, from: "open", to: "paid"),
                .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
            ]) {
                order.purchaseNum = 3
                order.status = "paid"
            }
        }
        #expect(message?.hasPrefix("the change feed differs at entry 1 (expected 2 entries, 2 arrived): expected update orders id=42 status 'open' → 'paid', got update orders id=42 purchase_num 1 → 3") == true, "\(message ?? "no failure")")
    }

    @Test func aDifferentValueFailsShowingBoth() async throws {
        let (store, order) = try paidOrder()
        let message = try await failure {
            try await store.expectChanges([.update("orders", id: 42, "status", from: "open", to: "paid")]) {
                order.status = "shipped"
            }
        }
        #expect(message?.hasPrefix("the change feed differs at entry 1 (expected 1 entry, 1 arrived): expected update orders id=42 status 'open' → 'paid', got update orders id=42 status 'open' → 'shipped'") == true, "\(message ?? "no failure")")
        let table = message?.split(separator: "\n").dropFirst().map(String.init) ?? []
        #expect(table.first?.hasPrefix("    #  expected") == true)
        #expect(table.last?.hasPrefix("  → 1  update orders id=42 status 'open' → 'paid'") == true, "\(table)")
    }

    @Test func anInsertChecksOnlyTheColumnsItNames() async throws {
        let store = try TestStore(migrations: packageMigrations)
        let message = try await failure {
            try await store.expectChanges([.insert("orders", id: 7, ["status": "open"])]) {
                try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (7, 5, 'held')")
            }
        }
        #expect(message?.contains("expected insert orders id=7 {status: 'open', …}, got insert orders id=7 {") == true, "\(message ?? "no failure")")
    }

    @Test func rowsAreNamedByTheirPrimaryKeyNotTheirRowid() async throws {
        let store = try TestStore(migrations: [Migration(version: 1, name: "tags", sql: "CREATE TABLE tags (code TEXT PRIMARY KEY, label TEXT)")])
        try store.execute("INSERT INTO tags VALUES ('a', 'first')")
        try await store.expectChanges([
            .update("tags", id: "a", "label", from: "first", to: "second"),
            .update("tags", id: "a", "code", from: "a", to: "b"),
            .delete("tags", id: "b"),
        ]) {
            try store.execute("UPDATE tags SET label = 'second' WHERE code = 'a'")
            try store.execute("UPDATE tags SET code = 'b' WHERE code = 'a'")
            try store.execute("DELETE FROM tags WHERE code = 'b'")
        }
    }
}

@Suite("Every writer is awaited without sleeps", .ownThread)
struct ForeignWriterKitTests {
    @Test func theShellAConnectionAndAnotherProcessAreAllSeen() async throws {
        let store = try TestStore(migrations: packageMigrations)
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let values = order.signal(for: \.purchaseNum).record()
        try await store.expectChanges([
            .update(\Order.status, id: 1, from: "open", to: "shell"),
            .update(\Order.status, id: 1, from: "shell", to: "connection"),
            .update(\Order.purchaseNum, id: 1, from: 1, to: 9),
        ]) {
            try store.sqlite3("UPDATE orders SET status = 'shell' WHERE id = 1")
            try store.foreignConnection().execute("UPDATE orders SET status = ? WHERE id = 1", [.text("connection")])
            let helper = try runProgram(builtExecutable("StoreTestHelper"), ["write", store.path, packageMigrations.path, "UPDATE orders SET purchase_num = ? WHERE id = 1", "9"])
            #expect(helper.status == 0, "\(helper.error)")
        }
        // settle() delivered to the live object too: no waiting.
        #expect(order.status == "connection")
        #expect(values.values == [1, 9])
    }

    @Test func aForeignConnectionHasSQLitesDefaults() throws {
        let store = try TestStore(migrations: packageMigrations)
        let connection = try store.foreignConnection()
        #expect(try connection.rows("PRAGMA foreign_keys") == [[.integer(0)]])
        #expect(try connection.rows("PRAGMA recursive_triggers") == [[.integer(0)]])
    }

    @Test func aFailingShellCommandSaysWhy() throws {
        let store = try TestStore(migrations: packageMigrations)
        #expect {
            try store.sqlite3("UPDATE missing_table SET x = 1")
        } throws: { error in
            "\(error)".contains("no such table: missing_table")
        }
    }
}

@Suite("Fixtures and golden feeds", .ownThread)
struct FixtureAndGoldenTests {
    @Test func aFeedRecordedByTheCLISeedsATestStore() async throws {
        let folder = TemporaryDirectory()
        let source = try TestStore(migrations: packageMigrations)
        try source.execute("INSERT INTO customers (id, name, email) VALUES (1, 'Ada', 'ada@example.com')")
        try source.execute("INSERT INTO orders (id, purchase_num, status, note, customer_id) VALUES (42, 1, 'open', 'a note', 1)")
        try source.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (44, 3, 'open', x'00ff')")   // not read by a model
        try source.execute("UPDATE orders SET status = 'paid' WHERE id = 42")
        try source.execute("INSERT INTO orders (id, purchase_num, status) VALUES (43, 2, 'gone')")
        try source.execute("DELETE FROM orders WHERE id = 43")
        let exported = try runProgram(builtExecutable("signalstore"), ["changes", "--json", "--db", source.path])
        try #require(exported.status == 0, "\(exported.error)")
        let fixture = folder.url.appendingPathComponent("fixture.json")
        try Data(exported.output.utf8).write(to: fixture)

        let seeded = try TestStore(migrations: packageMigrations, fixture: fixture)
        let order = try #require(try seeded.find(Order.self, id: Int64(42)))
        #expect(order.status == "paid")
        #expect(try seeded.find(Order.self, id: Int64(43)) == nil)
        let note = try seeded.foreignConnection().rows("SELECT note, customer_id FROM orders ORDER BY id")
        #expect(note == [[.text("a note"), .integer(1)], [.blob(Data([0x00, 0xFF])), .null]])
        try await seeded.expectChanges([.update(\Order.purchaseNum, id: 42, from: 1, to: 2)]) { order.purchaseNum = 2 }
    }

    @Test func aFixtureThatDoesNotFitSaysWhichEntry() throws {
        let folder = TemporaryDirectory()
        let fixture = folder.url.appendingPathComponent("bad.jsonl")
        try Data(#"{"type":"change","seq":1,"table":"orders","id":5,"operation":"update","column":"status","old":"a","new":"b"}"#.utf8).write(to: fixture)
        #expect {
            _ = try TestStore(migrations: packageMigrations, fixture: fixture)
        } throws: { error in
            "\(error)".contains("fixture entry 1 (update of orders row 5) changed 0 rows instead of one")
        }
        try Data("not json\n".utf8).write(to: fixture)
        #expect {
            _ = try TestStore(migrations: packageMigrations, fixture: fixture)
        } throws: { error in
            "\(error)".contains("line 1 is not a change entry")
        }
    }

    @Test func aMissingFixtureSaysHowToRecordItWhereTheTestLooks() {
        let fixture = URL(fileURLWithPath: "Fixtures/no-such-fixture.json")
        #expect {
            _ = try TestStore(migrations: packageMigrations, fixture: fixture)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("cannot read the fixture Fixtures/no-such-fixture.json: ")
                && text.hasSuffix("; record one in the package folder with `mkdir -p Fixtures && swift run signalstore changes --json --db app.sqlite > Fixtures/no-such-fixture.json`")
                && !text.contains(".;")
        }
    }

    @Test func aGoldenFeedRecordsThenMatchesThenFailsWithADiff() async throws {
        // Kept for the whole test: released at once, it would remove the folder before the feed
        // is recorded into it, and the recorded file would be left behind.
        let directory = TemporaryDirectory()
        let folder = directory.url
        let here = CallerLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        func run(status: String) async throws {
            let store = try TestStore(migrations: packageMigrations)
            // A golden feed is only as stable as the rows: the schema's created_at default is now.
            try store.execute("INSERT INTO orders (id, purchase_num, status, created_at) VALUES (1, 1, 'open', 0)")
            try store.execute("UPDATE orders SET status = ? WHERE id = 1", arguments: [.text(status)])
            try await store.assertFeed(matches: "paying", in: folder, at: here)
        }
        try await run(status: "paid")   // records
        let recorded = try String(contentsOf: folder.appendingPathComponent("paying.jsonl"), encoding: .utf8)
        #expect(recorded.hasPrefix(#"{"type":"change","seq":1,"table":"orders","id":1,"operation":"insert","row":{"id":1,"purchase_num":1,"status":"open""#), "\(recorded)")
        #expect(!recorded.contains("timestamp"))
        try await run(status: "paid")   // matches
        let message = try await failure { try await run(status: "shipped") }
        #expect(message?.hasPrefix("the feed recorded in __Feeds__/paying.jsonl differs at entry 2") == true, "\(message ?? "no failure")")
        #expect(message?.contains(#""new":"shipped""#) == true)
        #expect(message?.hasSuffix("(run with SIGNALSTORE_RECORD=1 to record the new feed)") == true)
        withExtendedLifetime(directory) {}
    }

    @Test func theGoldenFileBesideThisTest() async throws {
        let store = try TestStore(migrations: packageMigrations)
        try store.execute("INSERT INTO orders (id, purchase_num, status, created_at) VALUES (42, 1, 'open', 0)")
        let order = try #require(try store.find(Order.self, id: Int64(42)))
        try store.transaction {
            order.purchaseNum = 3
            order.status = "paid"
        }
        try await store.assertFeed(matches: "paying-an-order")
    }
}
