#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: conflicts resolve alike everywhere", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct ConflictTests {
    /// Two replicas on a fresh log that both hold order 1 (`purchaseNum` 1, status `new`).
    private func twoReplicasHoldingOneOrder(_ folder: TemporaryDirectory) async throws -> (Replica, Replica, SyncClient, SyncClient) {
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try a.store.insert(Order(id: 1, purchaseNum: 1, status: "new"))
        try await syncA.syncOnce(); try await syncB.syncOnce()
        return (a, b, syncA, syncB)
    }

    @Test("concurrent writes to one column on two partitioned replicas: the later write wins on both, whichever uploads first", arguments: [false, true])
    func laterWriteWins(laterUploadsFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let (a, b, syncA, syncB) = try await twoReplicasHoldingOneOrder(folder)

        // Partitioned: neither syncs while both write the same columns.
        try a.store.execute("UPDATE orders SET status = 'from a', purchase_num = 10 WHERE id = 1")
        try await Task.sleep(for: .milliseconds(5))
        try sqlite3(b.path, "UPDATE orders SET status = 'from b' WHERE id = 1")   // later, status only

        let order = laterUploadsFirst ? [syncB, syncA, syncB] : [syncA, syncB, syncA]
        for client in order { try await client.syncOnce() }
        for replica in [a, b] {
            let rows = try replica.contents()
            #expect(rows == ["orders 1 | 10 | 'from b' | NULL | \(rows.first!.split(separator: "|")[4].trimmingCharacters(in: .whitespaces)) | NULL | NULL"], "\(replica.path)")
        }
        #expect(try a.contents() == b.contents())
    }

    @Test("a delete wins over a concurrent update, in either upload order", arguments: [false, true])
    func deleteWinsOverConcurrentUpdate(deleteUploadsFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let (a, b, syncA, syncB) = try await twoReplicasHoldingOneOrder(folder)

        try await Task.sleep(for: .milliseconds(5))
        try sqlite3(a.path, "DELETE FROM orders WHERE id = 1")
        try await Task.sleep(for: .milliseconds(5))
        try b.store.execute("UPDATE orders SET purchase_num = 99 WHERE id = 1")   // later, but concurrent

        let order = deleteUploadsFirst ? [syncA, syncB, syncA] : [syncB, syncA, syncB]
        for client in order { try await client.syncOnce() }
        #expect(try a.contents().isEmpty)
        #expect(try b.contents().isEmpty)

        // Re-creating the row is an explicit insert, and it syncs.
        try b.store.insert(Order(id: 1, purchaseNum: 5, status: "again"))
        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try a.contents() == b.contents())
        #expect(try a.contents().count == 1)
    }

    @Test("compacting the log keeps the latest entry of each register: a new replica reads 2 entries for a row written 500 times, and gets the same row")
    func compactionKeepsTheLatest() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        try a.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 0, 'new')")
        try await a.client(url).syncOnce()   // a first sync uploads the rows as they are, not their history
        for value in 1...500 { try a.store.execute("UPDATE orders SET purchase_num = ? WHERE id = 1", arguments: [.integer(Int64(value))]) }
        try await a.client(url).syncOnce()
        try await b.client(url).syncOnce()
        let removed = try runProgram(signalstore, ["sync", "--compact", "--postgres", url, "--db", a.path])
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output == "compacted: removed 499 superseded entries from the server's log\n")

        let fresh = try Replica(folder, "fresh")
        #expect(try await fresh.client(url).syncOnce().downloaded == 2)
        #expect(try fresh.contents() == a.contents())
        #expect(try await b.client(url).syncOnce().downloaded == 0)   // b's cursor is past what went
    }

    @Test("model-based: random writes on three replicas under random partitions converge to what the rule makes of the server's log", arguments: [1, 2, 3] as [UInt64])
    func randomPartitionsConverge(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try (0..<3).map { try Replica(folder, "r\($0)") }
        let clients = try replicas.map { try $0.client(url) }
        for step in 0..<120 {
            let replica = replicas[Int.random(in: 0..<3, using: &random)]
            let id = Int.random(in: 1...6, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...1:
                try replica.store.execute("INSERT OR IGNORE INTO orders (id, purchase_num, status) VALUES (?, ?, ?)",
                                          arguments: [.integer(Int64(id)), .integer(Int64(step)), .text("s\(step)")])
            case 2:
                try replica.store.execute("DELETE FROM orders WHERE id = ?", arguments: [.integer(Int64(id))])
            case 3...5:
                try replica.store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(Int64(step)), .integer(Int64(id))])
            case 6...7:
                try replica.store.execute("UPDATE orders SET status = ?, note = ? WHERE id = ?",
                                          arguments: [.text("s\(step)"), .text("n\(step)"), .integer(Int64(id))])
            case 8:
                try await clients[Int.random(in: 0..<3, using: &random)].syncOnce()   // a partition heals, for one replica
            default:
                if Int.random(in: 0..<4, using: &random) == 0 {
                    _ = try await clients[0].compactServerLog()   // under replicas at every cursor
                } else {
                    try await clients[Int.random(in: 0..<3, using: &random)].syncOnce()
                }
            }
            if step % 7 == 0 { try await Task.sleep(for: .milliseconds(2)) }          // clocks move on
        }
        for _ in 0..<2 { for client in clients { try await client.syncOnce() } }
        // A replica that joins after the compactions starts from what is left of the log.
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        let contents = try (replicas + [late]).map { try $0.contents() }
        #expect(contents[3] == contents[0], "seed \(seed): the late replica")
        #expect(contents[1] == contents[0], "seed \(seed)")
        #expect(contents[2] == contents[0], "seed \(seed)")

        // Per the documented rule, computed from the server's log.
        let expected = try ServerLogOracle(url: url).expectedRows(table: "orders", columns: ["id", "purchase_num", "status", "note"])
        let actual = try replicas[0].store.readConnection { connection in
            try connection.statement("SELECT id, purchase_num, status, note FROM orders").rows()
        }
        #expect(Dictionary(uniqueKeysWithValues: actual.map { ($0[0], $0) }) == expected, "seed \(seed)")
    }
}

/// Reads the server's log with `psql`, and computes from it what the documented conflict rule
/// says every replica must hold.
struct ServerLogOracle {
    let url: String

    /// The rows of `sql` (`%s` stands for the test's schema), one line each, tab-separated.
    func query(_ sql: String) throws -> [String] {
        var components = URLComponents(string: url)!
        let schema = components.queryItems!.first { $0.name == "schema" }!.value!
        components.queryItems = components.queryItems!.filter { $0.name != "schema" }
        let psql = try ForeignTool.psql.path()
        let result = try runProgram(URL(fileURLWithPath: psql), [
            components.string!, "-At", "-F", "\t", "-c", sql.replacingOccurrences(of: "%s", with: schema),
        ])
        #expect(result.status == 0, "psql: \(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// Appends entries to the log as other replicas' uploads would (origin, origin seq, stamp,
    /// table, encoded key, operation, column, encoded payload): a log whose entries a test
    /// chooses, stamps included.
    func append(_ entries: [(origin: String, seq: Int64, hlc: Int64, table: String, key: String, operation: String, column: String?, payload: String?)]) throws {
        let literal = { (text: String?) in text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL" }
        let values = entries.enumerated().map { index, entry in
            "(\(index), \(literal(entry.origin)), \(entry.seq)::bigint, \(entry.hlc)::bigint, \(literal(entry.table)), \(literal(entry.key)), \(literal(entry.operation)), \(literal(entry.column))::text, \(literal(entry.payload))::text)"
        }
        _ = try query("""
            INSERT INTO %s.log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload)
            SELECT counter.next + v.n, v.origin, v.seq, v.hlc, v.tbl, v.row_key, v.op, v.col, v.payload
            FROM %s.counter, (VALUES \(values.joined(separator: ", "))) AS v(n, origin, seq, hlc, tbl, row_key, op, col, payload)
            WHERE counter.id = 1;
            UPDATE %s.counter SET next = next + \(entries.count) WHERE id = 1
            """)
    }

    /// The rows the documented rule makes of the log: a row exists when its latest insert is
    /// later than its latest delete; each column holds the latest update's value if that update
    /// is later than the insert, else the insert's value. Keyed by the first key column.
    func expectedRows(table: String, columns: [String]) throws -> [SQLiteValue: [SQLiteValue]] {
        typealias Stamp = (Int64, String)
        let lines = try query("SELECT hlc, origin, row_key, op, coalesce(col, ''), coalesce(payload, '') FROM %s.log WHERE tbl = '\(table)' ORDER BY position")
        var inserts: [String: (Stamp, [String: Any])] = [:]
        var deletes: [String: Stamp] = [:]
        var updates: [String: [String: (Stamp, SQLiteValue)]] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let stamp = (Int64(fields[0])!, fields[1]), key = fields[2]
            switch fields[3] {
            case "delete":
                if deletes[key].map({ $0 < stamp }) ?? true { deletes[key] = stamp }
            case "insert":
                let row = try JSONSerialization.jsonObject(with: Data(fields[5].utf8)) as! [String: Any]
                if inserts[key].map({ $0.0 < stamp }) ?? true { inserts[key] = (stamp, row) }
            default:
                let value = Self.value(try JSONSerialization.jsonObject(with: Data(fields[5].utf8), options: .fragmentsAllowed))
                if updates[key]?[fields[4]].map({ $0.0 < stamp }) ?? true { updates[key, default: [:]][fields[4]] = (stamp, value) }
            }
        }
        var expected: [SQLiteValue: [SQLiteValue]] = [:]
        for (key, (inserted, row)) in inserts where deletes[key].map({ $0 < inserted }) ?? true {
            let id = Self.value((try JSONSerialization.jsonObject(with: Data(key.utf8)) as! [Any])[0])
            expected[id] = columns.map { column in
                if let (stamp, value) = updates[key]?[column], stamp > inserted { return value }
                return Self.value(row[column] ?? NSNull())
            }
        }
        return expected
    }

    private static func value(_ object: Any) -> SQLiteValue {
        guard let tagged = object as? [String: Any], let (tag, payload) = tagged.first else { return .null }
        switch tag {
        case "i": return .integer((payload as! NSNumber).int64Value)
        case "t": return .text(payload as! String)
        default: return .null
        }
    }
}
#endif
