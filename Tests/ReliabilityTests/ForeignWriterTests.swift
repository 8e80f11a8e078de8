import Foundation
@testable import SignalStore
import Testing

/// Model-based: random batches of statements by foreign writers with SQLite's default settings
/// (the `sqlite3` shell and Python's `sqlite3`), every conflict clause, primary-key changes,
/// deletes with and without foreign-key enforcement, interleaved with writes through the store
/// and its models. After every batch the journal replays (strictly) to every table, and every
/// live object equals its row, or was completed because its row is gone.
@Suite(.ownThread)
struct ForeignWriterTests {
    static let migrations = packageMigrationList + [
        Migration(version: 3, name: "people", sql: """
            CREATE TABLE people (id INTEGER PRIMARY KEY, email TEXT COLLATE NOCASE UNIQUE, handle TEXT, active INTEGER);
            CREATE UNIQUE INDEX people_by_handle ON people (lower(handle));
            CREATE UNIQUE INDEX one_active_person ON people (active) WHERE active = 1;
            """),
    ]

    /// Seeds of the runs; each runs `batches` batches of `batchSize` foreign statements.
    static let seeds: [UInt64] = isHeavy ? Array(1...10) : [1, 2]
    static let batches = 50
    static let batchSize = 100

    @Test(arguments: seeds)
    func foreignWritersStoreWritesAndLiveObjectsAgree(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let path = directory.path("foreign.sqlite")
        let store = try Store(path: path, migrations: Self.migrations)
        var live: [Order] = []
        for id in 1...10 {
            let order = Order(id: Int64(id), purchaseNum: id, status: "new")
            try store.insert(order)
            live.append(order)
        }
        let replay = try JournalReplay.replay(store, migrations: Self.migrations)
        var replayedThrough = try store.lastChangeSeq
        var foreignStatements = 0
        for batch in 0..<Self.batches {
            let statements = (0..<Self.batchSize).map { _ in ForeignStatement.random(using: &random) }
            foreignStatements += statements.count
            try runForeignBatch(statements, path: path, python: batch.isMultiple(of: 2), foreignKeys: Bool.random(using: &random), using: &random)
            try writeThroughStore(store, live: &live, using: &random)
            let last = try store.lastChangeSeq
            await store.settle()
            #expect(store.registry.withLock { $0.lastSeenSeq } >= last, "the store did not catch up (seed \(seed), batch \(batch))")
            // A large batch is marked read before it is applied to the live objects, both while
            // the poller holds the writer's lock: taking that lock waits for the apply to end.
            store.database.withLock { _ in }
            for change in try store.journalEntries(after: replayedThrough) { try JournalReplay.apply(change, to: replay) }
            replayedThrough = last
            try JournalReplay.expectEqual(store, replay)
            try expectLiveObjectsEqualRows(live, store, context: "seed \(seed), batch \(batch)")
            live += try store.all(Order.self).filter { order in !live.contains { $0 === order } }
        }
        #expect(foreignStatements >= 5_000)
        store.close()
    }

    /// Runs the batch through one process: the sqlite3 shell (carrying on past failing
    /// statements) or Python's sqlite3 (each statement in its own try), sometimes inside one
    /// transaction, sometimes with foreign keys enforced.
    private func runForeignBatch(_ statements: [String], path: String, python: Bool, foreignKeys: Bool, using random: inout SeededGenerator) throws {
        let inTransaction = Bool.random(using: &random)
        if python {
            let script = """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF")")
                \(inTransaction ? "db.execute('BEGIN')" : "")
                for sql in sys.stdin.read().split(';\\n'):
                    try:
                        db.execute(sql)
                    except sqlite3.Error:
                        pass
                \(inTransaction ? "db.execute('COMMIT')" : "")
                """
            try runWithInput(ForeignTool.python3.path(), ["-c", script, path], input: statements.joined(separator: ";\n"))
        } else {
            let body = statements.map { $0 + ";" }.joined(separator: "\n")
            let script = "PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF");\n" + (inTransaction ? "BEGIN;\n\(body)\nCOMMIT;" : body)
            try runWithInput(sqlite3Path(), [path], input: script)
        }
    }

    /// Writes through the store: model sets, an insert, a REPLACE by SQL, a transaction.
    private func writeThroughStore(_ store: Store, live: inout [Order], using random: inout SeededGenerator) throws {
        let managed = live.filter { $0._$model.rowID != nil }
        if let order = managed.randomElement(using: &random) { order.purchaseNum = Int.random(in: 0...50, using: &random) }
        if let order = managed.randomElement(using: &random) { order.status = ["open", "paid", "gone"].randomElement(using: &random)! }
        let fresh = Order(id: Int64.random(in: 1...40, using: &random), purchaseNum: 1, status: "store")
        if (try? store.insert(fresh)) != nil { live.append(fresh) }
        _ = try? store.execute(ForeignStatement.random(using: &random))
        if let first = managed.randomElement(using: &random), let second = managed.randomElement(using: &random) {
            _ = try? store.transaction {
                first.note = "t\(Int.random(in: 0...9, using: &random))"
                second.purchaseNum = Int.random(in: 0...50, using: &random)
            }
        }
    }

    private func expectLiveObjectsEqualRows(_ live: [Order], _ store: Store, context: String) throws {
        for order in live {
            guard let rowID = order._$model.rowID else { continue }
            let row = try store.readConnection { connection in
                try connection.statement("SELECT id, purchase_num, status, note FROM orders WHERE rowid = ?").rows([.integer(rowID)]).first
            }
            let expected = row.map { [$0[0], $0[1], $0[2], $0[3]] }
            let actual: [SQLiteValue] = [.integer(order.id), .integer(Int64(order.purchaseNum)), .text(order.status), order.note.map(SQLiteValue.text) ?? .null]
            #expect(expected == actual, "live order at rowid \(rowID) (\(context))")
        }
    }
}

/// One random statement of a foreign writer, as SQL text with literal values.
enum ForeignStatement {
    static func random(using random: inout SeededGenerator) -> String {
        func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
        let order = Int.random(in: 1...40, using: &random)
        let other = Int.random(in: 1...40, using: &random)
        let customer = Int.random(in: 1...12, using: &random)
        let number = Int.random(in: -1...60, using: &random)
        let status = pick(["'open'", "'paid'", "NULL", "'x''y'"])
        let note = pick(["NULL", "'rush'", "''", "'gift'"])
        let email = pick(["'a@x'", "'A@X'", "'b@x'", "'c@x'", "NULL"])
        let clause = pick(["", " OR REPLACE", " OR IGNORE", " OR FAIL", " OR ABORT"])
        let person = "\(Int.random(in: 1...10, using: &random)), \(pick(["'p@x'", "'P@x'", "'q@x'", "'r@x'"])), \(pick(["'Ann'", "'ann'", "'bob'", "'Cy'"])), \(pick(["0", "1", "NULL"]))"
        let customerRef = pick(["NULL", "\(customer)"])
        return pick([
            "INSERT\(clause) INTO orders (id, purchase_num, status, note, customer_id) VALUES (\(order), \(number), \(status), \(note), \(customerRef))",
            "REPLACE INTO orders (id, purchase_num, status) VALUES (\(order), \(number), \(status))",
            "INSERT\(clause) INTO customers (id, name, email) VALUES (\(customer), 'c\(customer)', \(email))",
            "INSERT OR REPLACE INTO customers (id, name, email) VALUES (\(customer), 'n', \(email)), (\(customer % 12 + 1), 'm', \(pick(["'a@x'", "'b@x'"])))",
            "UPDATE\(clause) orders SET id = \(other) WHERE id = \(order)",
            "UPDATE\(clause) customers SET email = \(email) WHERE id = \(customer)",
            "UPDATE\(clause) customers SET id = \(Int.random(in: 1...12, using: &random)) WHERE id = \(customer)",
            "INSERT INTO orders (id, purchase_num, status) VALUES (\(order), \(number), \(status)) ON CONFLICT (id) DO UPDATE SET purchase_num = excluded.purchase_num, note = 'upserted'",
            "UPDATE orders SET purchase_num = purchase_num + 1, note = \(note) WHERE customer_id = \(customer)",
            "UPDATE orders SET customer_id = \(customerRef) WHERE id = \(order)",
            "DELETE FROM orders WHERE id = \(order)",
            "DELETE FROM customers WHERE id = \(customer)",
            "REPLACE INTO people (id, email, handle, active) VALUES (\(person))",
            "INSERT\(clause) INTO people (id, email, handle, active) VALUES (\(person))",
            "UPDATE\(clause) people SET active = 1, handle = \(pick(["'ANN'", "'Bob'", "'dee'"])) WHERE id = \(Int.random(in: 1...10, using: &random))",
            "DELETE FROM people WHERE id = \(Int.random(in: 1...10, using: &random))",
        ])
    }
}

/// Runs a program with `input` on its standard input; its failures are part of the test (a
/// foreign writer's statements may fail), so only a crash is an error.
private func runWithInput(_ executable: String, _ arguments: [String], input: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "\(executable) crashed")
}
