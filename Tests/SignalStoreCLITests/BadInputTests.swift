import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// Every kind of bad input: a clear message on stderr, exit status 1 (2 for usage errors), and
/// the database file byte-for-byte unchanged. Each case runs in-process and through the binary.
@Suite(.ownThread) struct BadInputTests {
    /// How a case runs the CLI.
    enum Runner: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case inProcess, binary

        var testDescription: String { rawValue }

        func run(_ arguments: [String]) throws -> CLIResult {
            switch self {
            case .inProcess: return runCLI(arguments)
            case .binary: return try runBinary(arguments, environment: [:])
            }
        }
    }

    /// One bad invocation: how to make the file, the arguments, and what must come out.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let database: @Sendable (TemporaryDirectory) throws -> String
        let arguments: @Sendable (String) -> [String]
        let status: Int32
        let message: String

        var testDescription: String { name }

        init(_ name: String, status: Int32 = 1, database: @escaping @Sendable (TemporaryDirectory) throws -> String = exampleDatabase, _ arguments: @escaping @Sendable (String) -> [String], _ message: String) {
            self.name = name
            self.database = database
            self.arguments = arguments
            self.status = status
            self.message = message
        }
    }

    static let cases: [Case] = [
        Case("unknown table", { ["get", "nosuch", "--db", $0] }, "error: no table 'nosuch' in this database; its tables are: customers, orders"),
        Case("unknown column", { ["set", "orders", "1", "nosuch=1", "--db", $0] }, "error: table orders has no column 'nosuch'; its columns are: id, purchase_num"),
        Case("unknown id", { ["set", "orders", "99", "purchase_num=1", "--db", $0] }, "error: table orders has no row with id '99'"),
        Case("delete of an unknown id", { ["delete", "orders", "99", "--db", $0] }, "error: table orders has no row with id '99'"),
        Case("id of the wrong type", { ["get", "orders", "one", "--db", $0] }, "error: orders.id is INTEGER: 'one' is not a whole number"),
        Case("value that does not fit", { ["set", "orders", "1", "purchase_num=many", "--db", $0] }, "error: orders.purchase_num is INTEGER: 'many' is not a whole number"),
        Case("CHECK violation", { ["set", "orders", "1", "purchase_num=-1", "--db", $0] }, "error: a constraint rejected the change: CHECK constraint failed"),
        Case("NOT NULL violation", { ["set", "orders", "1", "status=null", "--db", $0] }, "error: a constraint rejected the change: NOT NULL constraint failed: orders.status"),
        Case("foreign key violation", { ["set", "orders", "1", "customer_id=999", "--db", $0] }, "error: a constraint rejected the change: FOREIGN KEY constraint failed"),
        Case("unique violation on insert", { ["insert", "orders", "id=1", "purchase_num=1", "status=x", "--db", $0] }, "error: row 1 exists in 'orders'; change it with `signalstore set orders 1 COLUMN=VALUE…`, or remove it with `signalstore delete orders 1` first (nothing was changed)"),
        Case("identifier with quotes", { ["get", "orders\" --", "--db", $0] }, "error: no table 'orders\" --' in this database"),
        Case("identifier with SQL", { ["get", "orders WHERE 1=1; DROP TABLE orders", "--db", $0] }, "error: no table 'orders WHERE 1=1; DROP TABLE orders' in this database"),
        Case("column with SQL", { ["set", "orders", "1", "status = 'x', purchase_num=1", "--db", $0] }, "error: table orders has no column 'status ' (did you mean status?); its columns are"),
        Case("control characters", { ["get", "ord\ners\u{1B}[31m", "--db", $0] }, "error: no table 'ord\\ners\\u{1b}[31m' in this database"),
        Case("not a SQLite database", database: { directory in try write("this is not a database, just text that is long enough to look like a header of something", in: directory) },
             { ["get", "orders", "--db", $0] }, "is not a SQLite database (its header is wrong); check --db"),
        Case("empty file", database: { directory in try write("", in: directory) },
             { ["set", "orders", "1", "status=x", "--db", $0] }, "is an empty file, not a SignalStore database"),
        Case("truncated inside the header", database: { try truncatedDatabase(in: $0, to: 50) },
             { ["get", "orders", "--db", $0] }, "is truncated (50 bytes, shorter than a SQLite header)"),
        Case("truncated mid-page", database: { try truncatedDatabase(in: $0, to: 10_000) },
             { ["set", "orders", "1", "status=x", "--db", $0] }, "is truncated or damaged (10000 bytes"),
        Case("truncated at a page boundary", database: { try truncatedDatabase(in: $0, to: 8_192) },
             { ["get", "orders", "--db", $0] }, "is truncated or damaged (8192 bytes"),
        Case("SQLite but not SignalStore", database: { try plainSQLiteDatabase(in: $0) },
             { ["set", "t", "1", "x=1", "--db", $0] }, "is a SQLite database but not a SignalStore one (it has no change journal); run `signalstore migrate"),
        Case("read-only file", database: { try readOnlyDatabase(in: $0) },
             { ["set", "orders", "1", "status=x", "--db", $0] }, "is read-only; make it writable (chmod u+w) to change it"),
        Case("a directory", database: { directory in directory.url.path },
             { ["get", "orders", "--db", $0] }, "is a directory, not a database file"),
        Case("missing database", database: { directory in directory.path("missing.sqlite") },
             { ["get", "orders", "--db", $0] }, "error: no database at"),
        Case("adopting a plain database whose tables clash", database: { try clashingPlainDatabase(in: $0) },
             { ["migrate", "--db", $0, "--migrations", packageMigrations.path] },
             "error: migration failed: 0001_create_orders.sql:2: table orders already exists — "),
        Case("missing migrations folder", { ["migrate", "--db", $0, "--migrations", "/nonexistent/Migrations"] }, "error: migration failed:"),
        Case("usage: no assignment", status: 2, { ["set", "orders", "1", "--db", $0] }, "give at least one COLUMN=VALUE"),
        Case("usage: assignment without =", status: 2, { ["set", "orders", "1", "status", "--db", $0] }, "'status' is not an assignment; write COLUMN=VALUE"),
        Case("usage: column twice", status: 2, { ["set", "orders", "1", "status=a", "STATUS=b", "--db", $0] }, "column 'STATUS' is assigned twice"),
        Case("usage: unknown option", status: 2, { ["get", "orders", "--bogus", "--db", $0] }, "Unknown option '--bogus'"),
        Case("usage: unknown command", status: 2, { _ in ["frobnicate"] }, "error: unknown command 'frobnicate'; the commands are: demo, migrate"),
        Case("usage: bad timeout", status: 2, { ["set", "orders", "1", "status=x", "--timeout=-1", "--db", $0] }, "--timeout must be a number of seconds"),
        Case("usage: an option the command does not take", status: 2, { ["get", "orders", "--timeout", "2", "--db", $0] }, "error: get does not take --timeout (reads never wait for a writer's lock); the commands that take it: set, insert, delete, revert, migrate, prune"),
        Case("usage: sync waits for locks by itself", status: 2, { ["sync", "--timeout", "2", "--db", $0] }, "error: sync does not take --timeout (it waits for another writer's lock as long as that writer holds it, and says so in its status); the commands that take it: set, insert, delete, revert, migrate, prune"),
        Case("usage: seq not a number", status: 2, { ["changes", "--since", "abc", "--db", $0] }, "The value 'abc' is invalid for '--since <since>'"),
    ]

    @Test(arguments: Runner.allCases, cases)
    func badInputFailsClearlyAndChangesNothing(runner: Runner, badInput: Case) throws {
        let directory = TemporaryDirectory()
        let path = try badInput.database(directory)
        let before = fileBytes(path)
        let result = try runner.run(badInput.arguments(path))
        #expect(result.status == badInput.status, "\(result.error)")
        #expect(result.error.contains(badInput.message), "\(result.error)")
        #expect(result.output.isEmpty)
        if badInput.status == 1 {
            #expect(result.error.hasPrefix("error: ") && result.error.filter { $0 == "\n" }.count == 1, "not one line: \(result.error)")
        }
        #expect(fileBytes(path) == before, "the database file changed")
    }

    @Test(arguments: Runner.allCases)
    func aWriterHoldingTheLockPastTheTimeoutFailsTheWrite(runner: Runner) throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let before = fileBytes(path)
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let result = try runner.run(["set", "orders", "1", "status=x", "--timeout", "0.2", "--db", path])
        try holder.execute("ROLLBACK")
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: the database is locked by another writer past the timeout; try again when it is done, or wait longer with --timeout SECONDS"))
        #expect(fileBytes(path) == before)
    }

    @Test func aHugeArgumentDoesNotFloodTheUsageError() {
        let huge = String(repeating: "new\nline ", count: 20_000)
        let result = runCLI(["get", "orders", "--" + huge])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: Unknown option '--new"))
        #expect(result.error.count <= 1_600, "\(result.error.count) characters")
        #expect(result.error.hasSuffix("See 'signalstore get --help' for more information.\n"))
    }

    @Test func aReadOnlyDatabaseCanStillBeRead() throws {
        let directory = TemporaryDirectory()
        let path = try readOnlyDatabase(in: directory)
        let before = fileBytes(path)
        #expect(runCLI(["get", "orders", "1", "status", "--db", path]).output == "new\n")
        #expect(runCLI(["changes", "--db", path]).status == 0)
        #expect(fileBytes(path) == before)
    }

    @Test func aFailedFirstMigrationLeavesNoFileBehind() throws {
        let directory = TemporaryDirectory()
        let migrations = directory.path("Broken")
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        try Data("CREATE TABLE a (id INTEGER PRIMARY KEY);\nCREATE TABLE oops (;\n".utf8).write(to: URL(fileURLWithPath: migrations + "/0001_broken.sql"))
        let path = directory.path("new.sqlite")
        let result = runCLI(["migrate", "--db", path, "--migrations", migrations])
        #expect(result.status == 1)
        #expect(result.error.contains("0001_broken.sql:2:"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// A file with `text` in `directory`.
/// A plain SQLite database (no journal) that already has the `orders` table migration 1 creates.
private func clashingPlainDatabase(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("plain.sqlite")
    let connection = try Connection(path: path, deferWAL: true)
    try connection.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders VALUES (1, 9.5)")
    return path
}

private func write(_ text: String, in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("file.sqlite")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// The example database, cut to `length` bytes.
private func truncatedDatabase(in directory: TemporaryDirectory, to length: Int) throws -> String {
    let path = try exampleDatabase(in: directory)
    try fileBytes(path).prefix(length).write(to: URL(fileURLWithPath: path))
    return path
}

/// A SQLite database the store never opened.
private func plainSQLiteDatabase(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("plain.sqlite")
    let connection = try Connection(path: path)
    try connection.execute("PRAGMA journal_mode=DELETE; CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER); INSERT INTO t VALUES (1, 1)")
    return path
}

/// The example database with mode 0444.
private func readOnlyDatabase(in directory: TemporaryDirectory) throws -> String {
    let path = try exampleDatabase(in: directory)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    return path
}
