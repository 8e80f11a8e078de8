import Foundation
import Testing

/// `schema` shows what a constraint error refers to: UNIQUE keys, CHECK conditions, foreign keys.
@Suite(.ownThread)
struct SchemaRulesTests {
    @Test func schemaShowsUniqueCheckAndForeignKeys() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let orders = try runBinary(["schema", "orders", "--db", path])
        #expect(orders.status == 0, "\(orders.error)")
        #expect(Array(orders.outputLines.suffix(2)) == [
            "CHECK (purchase_num >= 0)",
            "FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL",
        ])
        #expect(try runBinary(["schema", "customers", "--db", path]).outputLines.last == "UNIQUE (email)")
        // A table made by a sqlite3 user, with the awkward cases: a quoted ')' inside a CHECK,
        // nested parentheses, an expression index with a condition.
        let shell = try runProgram(URL(fileURLWithPath: sqlite3Path()), [path, ".timeout 5000", """
            CREATE TABLE tags (name TEXT CHECK (name <> ')'), weight INT, CONSTRAINT bounded CHECK (weight > 0 AND (weight < 10)), UNIQUE (name, weight));
            CREATE UNIQUE INDEX tags_by_lower_name ON tags (lower(name)) WHERE weight > 1;
            """])
        try #require(shell.status == 0, "\(shell.error)")
        let tags = try runBinary(["schema", "tags", "--db", path])
        #expect(Array(tags.outputLines.suffix(4)) == [
            "UNIQUE (name, weight)",
            "UNIQUE (lower(name)) WHERE (weight > 1)",
            "CHECK (name <> ')')",
            "CHECK (weight > 0 AND (weight < 10))",
        ])
        let json = try #require(try parseJSON(try runBinary(["schema", "orders", "--json", "--db", path]).output) as? [String: Any])
        #expect(json["checks"] as? [String] == ["purchase_num >= 0"])
        let foreignKey = try #require((json["foreignKeys"] as? [[String: Any]])?.first)
        #expect(foreignKey["table"] as? String == "customers" && foreignKey["onDelete"] as? String == "SET NULL")
    }
}
