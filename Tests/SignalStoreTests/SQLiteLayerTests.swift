import Foundation
import Testing
@testable import SignalStore

@Suite("SQLite layer")
struct SQLiteLayerTests {
    struct Address: Codable, Equatable, SQLiteValueConvertible { var street: String; var number: Int }
    enum Status: String, Codable, SQLiteValueConvertible { case open, shipped }

    /// Writes a value into an untyped column and reads it back.
    private func roundTrip<Value: SQLiteValueConvertible & Equatable>(_ value: Value) throws -> Value? {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (v)")
        try connection.statement("INSERT INTO t VALUES (?)").run([value.sqliteValue])
        let stored = try connection.statement("SELECT v FROM t").rows()[0][0]
        return Value(sqliteValue: stored)
    }

    /// Text holding NUL characters is written and read whole: bound by its length, read by its
    /// length (it came back empty, or cut at the NUL, before; issue 36, report 7).
    @Test func textWithNULCharactersRoundTripsWholeThroughTheStoreAndTheJournal() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let recorder = store.changes(since: 0).record()
        let text = "\u{0}starts with NUL, a\u{0}b in the middle"
        try store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (1, 1, 'open', ?)", arguments: [.text(text)])
        #expect(try store.find(Order.self, id: Int64(1))?.note == text)
        #expect(try rows(store, "SELECT length(CAST(note AS BLOB)) FROM orders") == [[.integer(Int64(text.utf8.count))]])
        #expect(recorder.values.last?.row?["note"] == .text(text), "the journal's row image keeps it too")
        try store.execute("UPDATE orders SET note = 'x' WHERE id = 1")
        #expect(recorder.values.last?.oldValue == .text(text))
        store.close()
    }

    @Test func builtInTypesRoundTrip() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(Int.min) == Int.min)
        #expect(try roundTrip(Int8(-7)) == -7)
        #expect(try roundTrip(UInt64.max) == UInt64.max)
        #expect(try roundTrip(UInt32.max) == UInt32.max)
        #expect(try roundTrip(0.1 + 0.2) == 0.1 + 0.2)
        #expect(try roundTrip(Float(1.5)) == 1.5)
        #expect(try roundTrip("héllo 'quoted'") == "héllo 'quoted'")
        #expect(try roundTrip(Data([0, 1, 255])) == Data([0, 1, 255]))
        #expect(try roundTrip([UInt8]([9, 8])) == [9, 8])
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(try roundTrip(date) == date)
        let uuid = UUID()
        #expect(try roundTrip(uuid) == uuid)
        #expect(try roundTrip(URL(string: "https://example.com/a?b=c")!) == URL(string: "https://example.com/a?b=c")!)
        #expect(try roundTrip(Optional<Int>.none) == .some(nil))
        #expect(try roundTrip(Optional(5)) == .some(5))
        #expect(try roundTrip(Status.shipped) == .shipped)
        #expect(try roundTrip(Address(street: "Main", number: 3)) == Address(street: "Main", number: 3))
    }

    @Test func enumsWithRawValuesAreStoredAsTheRawValueAndCodableAsJSON() {
        #expect(Status.open.sqliteValue == .text("open"))
        #expect(Address(street: "A", number: 1).sqliteValue == .text(#"{"number":1,"street":"A"}"#))
    }

    @Test func readingTheWrongTypeFailsInsteadOfCrashing() {
        #expect(Int8(sqliteValue: .integer(1_000)) == nil)
        #expect(Int(sqliteValue: .text("abc")) == nil)
        #expect(String(sqliteValue: .integer(1)) == nil)
        #expect(Status(sqliteValue: .text("lost")) == nil)
        #expect(Optional<Int>(sqliteValue: .text("x")) == nil)
    }

    @Test func errorsCarryCodesMessageAndSQLButNeverBoundValues() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (n INTEGER CHECK (n >= 0))")
        let error = #expect(throws: SQLiteError.self) {
            try connection.statement("INSERT INTO t VALUES (?)").run([.integer(-987_654)])
        }
        #expect(error?.extendedCode == 275)   // SQLITE_CONSTRAINT_CHECK
        #expect(error?.extended == SQLiteError.constraintCheck)
        #expect(error?.code == SQLiteError.constraint)
        #expect(error?.message.contains("CHECK constraint failed") == true)
        #expect(error?.sql == "INSERT INTO t VALUES (?)")
        #expect(error?.description.contains("987654") == false)
    }

    @Test func errorsMatchByCodeInCatchClauses() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (n INTEGER NOT NULL)")
        func insertNull() throws { try connection.statement("INSERT INTO t VALUES (NULL)").run() }
        var matched = false
        do {
            try insertNull()
        } catch SQLiteError.busy {
            Issue.record("matched the wrong code")
        } catch SQLiteError.constraint {
            matched = true
        }
        #expect(matched)
    }

    /// Each constraint's extended code, matched in `catch` clauses and in a `switch` over
    /// `extended`: an extended code matches only itself, a primary code its whole kind, and the
    /// store's wrapped errors match alike.
    @Test(arguments: [
        ("INSERT INTO t (id, email, n) VALUES (1, 'b', 1)", SQLiteError.constraintPrimaryKey),
        ("INSERT INTO t (id, email, n) VALUES (2, 'a', 1)", SQLiteError.constraintUnique),
        ("INSERT INTO t (id, email, n) VALUES (2, 'b', -1)", SQLiteError.constraintCheck),
        ("INSERT INTO t (id, email, n) VALUES (2, NULL, 1)", SQLiteError.constraintNotNull),
        ("INSERT INTO t (id, email, n, parent) VALUES (2, 'b', 1, 99)", SQLiteError.constraintForeignKey),
    ])
    func extendedCodesNameEachConstraint(sql: String, expected: SQLiteError.Code) throws {
        let store = try Store.inMemory(migrations: [Migration(version: 1, name: "t", sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, n INTEGER CHECK (n >= 0), parent INTEGER REFERENCES t(id));
            INSERT INTO t (id, email, n) VALUES (1, 'a', 1);
            """)])
        let error = try #require(#expect(throws: (any Error).self) { try store.execute(sql) })
        let sqliteError = try #require((error as? SQLiteError) ?? { if case StoreError.sqlite(let inner) = error { inner } else { nil } }())
        #expect(sqliteError.extended == expected)
        #expect(!expected.isPrimary && expected.primary == SQLiteError.constraint && sqliteError.code == SQLiteError.constraint)
        let others = [SQLiteError.constraintPrimaryKey, SQLiteError.constraintUnique, SQLiteError.constraintCheck, SQLiteError.constraintNotNull, SQLiteError.constraintForeignKey].filter { $0 != expected }
        #expect(expected ~= error)
        #expect(SQLiteError.constraint ~= error)
        #expect(!others.contains { $0 ~= error })
        #expect(!(SQLiteError.busy ~= error))
        switch sqliteError.extended {
        case SQLiteError.busy: Issue.record("a constraint matched busy")
        case expected: break
        case SQLiteError.constraint: Issue.record("the extended case \(expected.rawValue) did not match \(sqliteError.extendedCode)")
        default: Issue.record("no case matched \(sqliteError.extendedCode)")
        }
    }

    @Test func settingsOnOpen() throws {
        let directory = TemporaryDirectory()
        let connection = try Connection(path: directory.path("settings.sqlite"))
        func pragma(_ name: String) throws -> SQLiteValue { try connection.statement("PRAGMA \(name)").rows()[0][0] }
        #expect(try pragma("journal_mode") == .text("wal"))
        #expect(try pragma("synchronous") == .integer(1))
        #expect(try pragma("foreign_keys") == .integer(1))
        #expect(try pragma("busy_timeout") == .integer(5_000))
        // SQLite's default, as every other writer has it: capture does not depend on it.
        #expect(try pragma("recursive_triggers") == .integer(0))
        // A writer keeps its statement journals in memory (see Connection's documentation).
        #expect(try pragma("temp_store") == .integer(2))
    }

    @Test func newDatabaseFilesAreOwnerOnly() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("private.sqlite")
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "\(file) has mode \(String(permissions ?? 0, radix: 8))")
        }
    }

    @Test func notADatabaseIsAClearError() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("text.sqlite")
        try Data(String(repeating: "not a database at all ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SQLiteError.self) { try Connection(path: path) }
        do {
            _ = try Connection(path: path)
        } catch {
            #expect(error.code == SQLiteError.notADatabase)
        }
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        struct Rollback: Error {}
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (1)")
            _ = try? connection.transaction {
                try connection.execute("INSERT INTO t VALUES (2)")
                throw Rollback()
            }
            try connection.transaction { try connection.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(try connection.statement("SELECT x FROM t ORDER BY x").rows() == [[.integer(1)], [.integer(3)]])
        #expect(throws: Rollback.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (4)")
                throw Rollback()
            }
        }
        #expect(try connection.statement("SELECT count(*) FROM t").rows() == [[.integer(2)]])
        #expect(!connection.isInTransaction)
    }

    @Test("writes take the write lock at BEGIN IMMEDIATE, before their first statement")
    func transactionsBeginImmediate() throws {
        let directory = TemporaryDirectory()
        let connection = try Connection(path: directory.path("lock.sqlite"))
        try connection.execute("CREATE TABLE t (x)")
        let other = try Connection(path: directory.path("lock.sqlite"), busyTimeout: .zero)
        try connection.transaction {
            // Nothing written yet: a deferred transaction would not hold the lock.
            #expect(throws: SQLiteError.self) { try other.execute("BEGIN IMMEDIATE") }
        }
        try other.execute("BEGIN IMMEDIATE; ROLLBACK")
    }

    @Test func statementsAreCachedPerConnection() throws {
        let connection = try Connection(path: ":memory:")
        #expect(try connection.statement("SELECT 1") === connection.statement("SELECT 1"))
    }

    @Test func bindingTheWrongNumberOfValuesIsAnError() throws {
        let connection = try Connection(path: ":memory:")
        #expect(throws: SQLiteError.self) { try connection.statement("SELECT ?, ?").run([.integer(1)]) }
    }

    @Test func scriptsSplitLikeSQLiteAndKnowTheirLines() throws {
        let script = SQLScript("""
            -- a comment; with a semicolon
            CREATE TABLE a (x TEXT DEFAULT 'x;y');

            CREATE TRIGGER t AFTER INSERT ON a BEGIN
                SELECT 1; SELECT 2;
            END;
            INSERT INTO a VALUES ('1');
            -- trailing comment
            """)
        let statements = try script.statements()
        #expect(statements.map(\.line) == [2, 4, 7])
        #expect(statements[0].sql == "CREATE TABLE a (x TEXT DEFAULT 'x;y');")
        #expect(statements[1].sql.hasSuffix("END;"))
    }

    /// Issue 33, item 3: SQL built by interpolation quotes names and binds values, so a hostile
    /// name or value is only ever a name or a value.
    @Test func interpolatedSQLQuotesNamesAndBindsValues() throws {
        let table = #"odd "name" ; DROP TABLE x"#
        let value = SQLiteValue.text("'); DROP TABLE x; --")
        let sql: SQL = "SELECT \(identifiers: ["a", #"b"c"#]) FROM \(identifier: table) WHERE a = \(value: value) AND b IN (\(values: [.integer(1), .null])) LIMIT \(5)"
        #expect(sql.text == #"SELECT "a", "b""c" FROM "odd ""name"" ; DROP TABLE x" WHERE a = ? AND b IN (?, ?) LIMIT 5"#)
        #expect(sql.arguments == [value, .integer(1), .null])
        let first: SQL = "\(identifier: "a") = \(value: .integer(1))"
        let condition = SQL(joining: [first, "\(identifier: "b") IS NULL"], separator: " AND ")
        let nested: SQL = "DELETE FROM t WHERE \(condition)"
        #expect(nested.text == #"DELETE FROM t WHERE "a" = ? AND "b" IS NULL"#)
        #expect(nested.arguments == [.integer(1)])

        let connection = try Connection(path: ":memory:")
        try connection.run("CREATE TABLE \(identifier: table) (a TEXT, \(identifier: #"b"c"#) INTEGER)")
        try connection.run("INSERT INTO \(identifier: table) VALUES (\(values: [value, .integer(7)]))")
        #expect(try connection.rows("SELECT \(identifiers: ["a", #"b"c"#]) FROM \(identifier: table) WHERE a = \(value: value)") == [[value, .integer(7)]])
        #expect(try connection.scalar("SELECT count(*) FROM \(identifier: table)") == .integer(1))
    }

    /// Issue 33, item 1: one place builds a row's reads and writes, by rowid, key or primary key.
    @Test func rowSQLLocatesARowByRowidKeyOrPrimaryKey() throws {
        let table = TableSchema(name: "tags", columns: [
            ColumnSchema(name: "owner", declaredType: "TEXT", notNull: true, defaultSQL: nil, primaryKeyPosition: 1),
            ColumnSchema(name: "name", declaredType: "TEXT", notNull: true, defaultSQL: nil, primaryKeyPosition: 2),
            ColumnSchema(name: "n", declaredType: "INTEGER", notNull: false, defaultSQL: nil, primaryKeyPosition: 0),
        ], isWithoutRowID: false)
        let byRowID = RowSQL.read(["n"], from: "tags", at: .rowID(7))
        #expect(byRowID.text == #"SELECT "n" FROM "tags" WHERE rowid = ?"# && byRowID.arguments == [.integer(7)])
        let byKey = RowSQL.delete(from: "tags", at: .primaryKey([.text("ann"), .text("a")], in: table))
        #expect(byKey.text == #"DELETE FROM "tags" WHERE "owner" IS ? AND "name" IS ?"# && byKey.arguments == [.text("ann"), .text("a")])
        let update = RowSQL.update("tags", setting: [("n", .integer(2))], at: .key(.integer(3), in: table))
        #expect(update.text == #"UPDATE "tags" SET "n" = ? WHERE rowid = ?"# && update.arguments == [.integer(2), .integer(3)])
    }
}
