import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// The commands driven in-process: what each prints, in human form and as JSON.
@Suite(.ownThread) struct CommandTests {
    @Test func migrateCreatesTheDatabaseThenReportsItUpToDate() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("new.sqlite")
        let first = runCLI(["migrate", "--db", path, "--migrations", packageMigrations.path])
        #expect(first.status == 0)
        #expect(first.outputLines == ["applied migration 1: create_orders", "applied migration 2: create_customers", "\(path) is now at version 2"])
        let second = runCLI(["migrate", "--db", path, "--migrations", packageMigrations.path, "--json"])
        #expect(second.status == 0)
        let document = try #require(try parseJSON(second.output) as? [String: Any])
        #expect(document["version"] as? Int == 2)
        #expect((document["applied"] as? [Any])?.isEmpty == true)
    }

    @Test func insertGetAndGetOneValue() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let all = runCLI(["get", "orders", "--db", path])
        #expect(all.status == 0)
        #expect(all.outputLines.first?.hasPrefix("id  purchase_num  status  note") == true)
        #expect(all.outputLines.count == 3)
        #expect(all.outputLines[2].hasPrefix("2   2             paid    gift"))

        let limited = runCLI(["get", "orders", "--limit", "1", "--db", path])
        #expect(limited.outputLines.count == 2)
        #expect(limited.outputLines[1].hasPrefix("1   1             new"))

        let row = runCLI(["get", "orders", "2", "--db", path])
        #expect(row.outputLines.contains("status        paid"))
        #expect(runCLI(["get", "orders", "2", "note", "--db", path]).output == "gift\n")
        #expect(runCLI(["get", "ORDERS", "2", "PURCHASE_NUM", "--db", path]).output == "2\n")

        let json = try #require(try parseJSON(runCLI(["get", "orders", "--db", path, "--json"]).output) as? [[String: Any]])
        #expect(json.map { $0["purchase_num"] as? Int } == [1, 2])
        #expect(json[0]["note"] is NSNull)
        let value = try parseJSON(runCLI(["get", "orders", "2", "note", "--json", "--db", path]).output)
        #expect(value as? String == "gift")
    }

    @Test func setChangesSeveralColumnsAndPrintsOldAndNew() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = runCLI(["set", "orders", "1", "purchase_num=5", "status=shipped", "note=null", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines == [
            "COLUMN        OLD      NEW",
            "purchase_num  1     →  5",
            "status        new   →  shipped",
            "note          null     (unchanged)",
        ])
        #expect(runCLI(["get", "orders", "1", "status", "--db", path]).output == "shipped\n")

        let json = try #require(try parseJSON(runCLI(["set", "orders", "1", "note='null'", "--json", "--db", path]).output) as? [String: Any])
        let change = try #require((json["changes"] as? [[String: Any]])?.first)
        #expect(change["old"] is NSNull)
        #expect(change["new"] as? String == "null")

        // The human table keeps each value on one line; the raw value for scripts and JSON keep
        // the text exact.
        #expect(runCLI(["set", "orders", "1", "note=two\nlines\u{7}", "--db", path]).status == 0)
        #expect(runCLI(["get", "orders", "1", "--db", path]).output.contains("note          two\\nlines\\u{7}\n"))
        #expect(runCLI(["get", "orders", "1", "note", "--db", path]).output == "two\nlines\u{7}\n")
        #expect(try parseJSON(runCLI(["get", "orders", "1", "note", "--json", "--db", path]).output) as? String == "two\nlines\u{7}")
    }

    @Test func setIsOneTransaction() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let bytes = fileBytes(path)
        // The second assignment violates CHECK (purchase_num >= 0) after the first was applied
        // in the same UPDATE: nothing of it remains.
        let result = runCLI(["set", "orders", "1", "status=shipped", "purchase_num=-1", "--db", path])
        #expect(result.status == 1)
        #expect(result.error.contains("CHECK constraint failed"))
        #expect(fileBytes(path) == bytes)
        #expect(runCLI(["get", "orders", "1", "status", "--db", path]).output == "new\n")
    }

    @Test func valuesAreParsedByTheColumnsDeclaredType() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("types.sqlite")
        let migrations = directory.path("Migrations")
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        try Data("CREATE TABLE things (id INTEGER PRIMARY KEY, count INT, price REAL, label TEXT, data BLOB, amount NUMERIC, anything);".utf8)
            .write(to: URL(fileURLWithPath: migrations + "/0001_things.sql"))
        #expect(runCLI(["migrate", "--db", path, "--migrations", migrations]).status == 0)
        let insert = runCLI(["insert", "things", "count=7", "price=2.5", "label=42", "data=x'00FF'", "amount=3", "anything=hello", "--json", "--db", path])
        #expect(insert.status == 0, "\(insert.error)")
        let row = try #require((try parseJSON(insert.output) as? [String: Any])?["row"] as? [String: Any])
        #expect(row["count"] as? Int == 7)
        #expect(row["price"] as? Double == 2.5)
        #expect(row["label"] as? String == "42")
        #expect((row["data"] as? [String: Any])?["$blob"] as? String == "00ff")
        #expect(row["amount"] as? Int == 3)
        #expect(row["anything"] as? String == "hello")
        #expect(runCLI(["get", "things", "1", "data", "--db", path]).output == "x'00FF'\n")
        #expect(runCLI(["set", "things", "1", "amount=2.25", "data=0x0a", "--db", path]).status == 0)
        #expect(runCLI(["get", "things", "1", "amount", "--db", path]).output == "2.25\n")

        for (assignment, message) in [
            ("count=1.5", "things.count is INT: '1.5' is not a whole number"),
            ("price=abc", "things.price is REAL: 'abc' is not a number"),
            ("price=nan", "things.price is REAL: 'nan' is not a number"),
            ("amount=12abc", "things.amount is NUMERIC: '12abc' is not a number"),
            ("data=xyz", "things.data is BLOB: 'xyz' is not hex bytes"),
            ("data=0x123", "things.data is BLOB: '0x123' is not hex bytes"),
        ] {
            let result = runCLI(["set", "things", "1", assignment, "--db", path])
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("error: \(message)"), "\(result.error)")
        }
    }

    @Test func deleteRemovesTheRowAndPrintsIt() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = runCLI(["delete", "orders", "2", "--db", path])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("deleted orders 2 {id: 2, purchase_num: 2, status: paid, note: gift"))
        #expect(runCLI(["get", "orders", "--db", path, "--json"]).output.contains("\"id\":2") == false)
    }

    @Test
    func virtualTablesAndTheirShadowTablesAreNeverListedOrWatchable() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, "CREATE VIRTUAL TABLE search USING fts5(body); INSERT INTO search VALUES ('hello');")
        #expect(try runBinary(["tables", "--db", path]).outputLines == ["TABLE      ROWS  COLUMNS", "customers  0     3", "orders     2     7"])
        let watch = try runBinary(["watch", "search", "--db", path])
        #expect(watch.status == 1)
        #expect(watch.error.hasPrefix("error: no table 'search' in this database; its tables are: customers, orders"))
    }

    @Test func tablesSchemaAndStatus() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(runCLI(["tables", "--db", path]).outputLines == ["TABLE      ROWS  COLUMNS", "customers  0     3", "orders     2     7"])
        let schema = runCLI(["schema", "orders", "--db", path])
        #expect(schema.outputLines.first == "orders")
        #expect(schema.outputLines.contains("purchase_num  INTEGER  no"))
        let allSchemas = try #require(try parseJSON(runCLI(["schema", "--json", "--db", path]).output) as? [[String: Any]])
        #expect(allSchemas.map { $0["table"] as? String } == ["customers", "orders"])

        let status = runCLI(["status", "--db", path, "--migrations", packageMigrations.path])
        #expect(status.outputLines.contains("version   2 (create_customers)"))
        #expect(status.outputLines.contains("pending   none"))
        #expect(status.outputLines.contains("last seq  2"))
        let json = try #require(try parseJSON(runCLI(["status", "--json", "--db", path, "--migrations", "/nonexistent"]).output) as? [String: Any])
        #expect(json["lastSeq"] as? Int == 2)
        #expect(json["pending"] is NSNull)
    }

    @Test func changesListsTheFeedAndPruneCutsIt() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(runCLI(["set", "orders", "1", "purchase_num=9", "--db", path]).status == 0)
        let all = runCLI(["changes", "--db", path])
        #expect(all.outputLines.count == 3)
        #expect(all.outputLines[2] == "#3  orders  1  update  purchase_num: 1 → 9")
        let limited = try #require(try parseJSON(runCLI(["changes", "--since", "1", "--limit", "1", "--json", "--db", path]).output) as? [[String: Any]])
        #expect(limited.map { $0["seq"] as? Int } == [2])
        #expect((limited[0]["row"] as? [String: Any])?["status"] as? String == "paid")

        #expect(runCLI(["prune", "--through", "2", "--db", path]).output == "pruned 2 entries through seq 2; 1 remain\n")
        let gap = runCLI(["changes", "--since", "1", "--db", path])
        #expect(gap.status == 1)
        #expect(gap.error.contains("entries up to seq 2 were pruned"))
        let beyond = runCLI(["prune", "--through", "99", "--db", path])
        #expect(beyond.status == 1)
        #expect(beyond.error == "error: cannot prune through seq 99: the last entry is seq 3; give a seq up to 3\n")
    }

    @Test func theDatabaseComesFromTheEnvironmentWhenNoDbIsGiven() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(runCLI(["get", "orders", "1", "status"], environment: ["SIGNALSTORE_DB": path]).output == "new\n")
        let missing = runCLI(["get", "orders"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no database given: pass --db PATH or set SIGNALSTORE_DB"))
    }

    @Test(arguments: ["demo", "migrate", "status", "tables", "schema", "get", "set", "insert", "delete", "watch", "changes", "prune"])
    func everyCommandsHelpHasAnExample(command: String) {
        let help = runCLI([command, "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("Example"))
        #expect(help.output.contains("signalstore \(command == "demo" ? "demo" : command)"))
    }
}
