#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import SignalsTesting
import Testing

/// A long run of another replica's inserts goes in without the capture triggers and is
/// journaled by the applier (`Journal.journalInsert`): this replica's feed must not tell the
/// difference.
@Suite("Sync: a run of inserts journaled by the applier", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct HandJournaledInsertTests {
    static let migrations = [
        Migration(version: 1, name: "kinds of values", sql: """
            CREATE TABLE readings (
                id INTEGER PRIMARY KEY, count INTEGER, ratio REAL, label TEXT, raw BLOB, anything, amount NUMERIC,
                code TEXT UNIQUE);
            CREATE TABLE audited (id INTEGER PRIMARY KEY, note TEXT);
            CREATE TABLE audit_log (id INTEGER PRIMARY KEY, audited_id INTEGER);
            CREATE TRIGGER audited_logged AFTER INSERT ON audited BEGIN INSERT INTO audit_log (audited_id) VALUES (NEW.id); END;
            """),
    ]
    static let synced = ["readings", "audited"]

    /// A real that 15 digits do not round-trip: SQLite's `quote()` writes it with 20.
    static let longReal = 1795733324.5209978

    /// Row `i` of `readings`: every storage class in every kind of column. Rows 50 and 51 hold
    /// a text in the NUMERIC column, which the applier cannot be sure is stored as given: they
    /// go in with the triggers, in the middle of the run.
    static func reading(_ i: Int, count: Int? = nil) -> String {
        let ratios = ["\(Double(i) + 0.25)", "\(longReal + Double(i))", "\(Double(2 * i))", "1e300", i.isMultiple(of: 2) ? "9e999" : "-9e999", "NULL"]
        let labels = ["'plain \(i)'", "'quote '' \"dq\" \\\\ back'", "'line' || char(10) || 'tab' || char(9) || 'bell' || char(1)", "'é ✓ 𝄞'"]
        let anything = ["\(i)", "0.5", "'x'", "x'ab'"]
        let amount = i == 50 || i == 51 ? "'n/a'" : "\(3 * i)"
        return "(\(i), \(count ?? 7 * i), \(ratios[i % 6]), \(labels[i % 4]), \(i.isMultiple(of: 3) ? "x'00ff10'" : "NULL"), \(anything[i % 4]), \(amount), 'r-\(i)')"
    }

    /// Inserts rows `ids` of `readings` in one transaction; row `repeating.row` takes row
    /// `repeating.countOf`'s count.
    static func insertReadings(_ ids: ClosedRange<Int>, into path: String, audited: Int = 0, repeating: (row: Int, countOf: Int)? = nil) throws {
        let rows = ids.map { $0 == repeating?.row ? reading($0, count: 7 * repeating!.countOf) : reading($0) }
        var sql = "BEGIN; INSERT INTO readings VALUES " + rows.joined(separator: ", ") + ";"
        if audited > 0 { sql += " INSERT INTO audited (id, note) VALUES " + (1...audited).map { "(\($0), 'n\($0)')" }.joined(separator: ", ") + ";" }
        try sqlite3(path, sql + " COMMIT;")
    }

    /// Every row of `table`, each value quoted by SQLite (exact for reals and blobs).
    static func rows(_ replica: Replica, _ table: String) throws -> [String] {
        try replica.store.readConnection { connection in
            let columns = try TableSchema.read(table, connection)!.columnNames.map { "quote(\($0))" }.joined(separator: " || ' | ' || ")
            return try connection.statement("SELECT \(columns) FROM \(table) ORDER BY rowid").rows().map { $0[0].textValue ?? "" }
        }
    }

    /// The feed's insert entries of `table`, by rowid, read from seq 0.
    static func inserts(_ replica: Replica, _ table: String, expecting count: Int) -> [Int64: [String: SQLiteValue]] {
        let journalCount = (try? replica.store.readConnection { try $0.scalar("SELECT count(*) FROM _signalstore_changes")?.integerValue ?? 0 }) ?? 0
        let feed = replica.store.changes(since: 0).record()
        _ = feed.waitForEvents(count: Int(journalCount))
        let entries = feed.values.filter { $0.table == table && $0.operation == .insert }
        #expect(entries.count == count, "\(table): \(entries.count) insert entries")
        return Dictionary(entries.map { ($0.rowID, $0.row ?? [:]) }, uniquingKeysWith: { first, _ in first })
    }

    static func rawJournal(_ replica: Replica, _ table: String, rowID: Int64) throws -> String {
        try replica.store.readConnection {
            try $0.scalar("SELECT new_value FROM _signalstore_changes WHERE table_name = ? AND row_id = ? AND operation = 'insert'", [.text(table), .integer(rowID)])?.textValue ?? ""
        }
    }

    @Test("100 inserts of every kind of value, two of them needing the triggers, reach the feed as the insert trigger journals them; a table with a user's trigger keeps its triggers; the triggers are on afterwards")
    func aRunOfInsertsIsJournaledAsTheTriggerWould() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a", migrations: Self.migrations), b = try Replica(folder, "b", migrations: Self.migrations)
        let syncA = try a.client(url, tables: Self.synced), syncB = try b.client(url, tables: Self.synced)
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        let live = b.store.changes().record()

        try Self.insertReadings(1...100, into: a.path, audited: 40)
        try await syncA.syncOnce()
        let progress = try await syncB.syncOnce()
        #expect(progress.applied == 140, "\(progress)")

        #expect(try Self.rows(b, "readings") == Self.rows(a, "readings"))
        #expect(try Self.rows(b, "audited") == Self.rows(a, "audited"))
        #expect(try Self.rows(b, "audit_log").count == 40, "the user's trigger on audited fired for every synced row")
        // A's entries were written by the insert trigger (the sqlite3 shell's insert).
        let written = Self.inserts(a, "readings", expecting: 100), applied = Self.inserts(b, "readings", expecting: 100)
        for id in Int64(1)...100 {
            #expect(applied[id] != nil && applied[id] == written[id], "row \(id): \(applied[id].map { "\($0)" } ?? "missing") against \(written[id].map { "\($0)" } ?? "missing")")
        }
        #expect(Self.inserts(b, "audited", expecting: 40).count == 40)
        // The applier journaled row 1 itself: Swift writes the real in its shortest form,
        // SQLite's trigger with 20 digits.
        let shortest = "\"ratio\":\(Self.longReal + 1)"
        #expect(try Self.rawJournal(b, "readings", rowID: 1).contains(shortest))
        #expect(try !Self.rawJournal(a, "readings", rowID: 1).contains(shortest))
        #expect(try Self.rawJournal(b, "readings", rowID: 50).contains("\"amount\":\"n/a\""))

        // Published once each, live, in one commit.
        #expect(live.waitForEvents(count: 180))
        let published = live.values
        #expect(published.count == 180, "100 readings, 40 audited and the 40 audit_log rows their trigger wrote: \(published.count)")
        #expect(Set(published.map(\.seq)).count == published.count)

        // The connection's triggers are on again: the store's own insert is journaled, the
        // user's trigger fires.
        _ = try b.store.execute("INSERT INTO audited (id, note) VALUES (1000, 'local')")
        #expect(live.waitForEvents(count: 182))
        #expect(try Self.rows(b, "audit_log").count == 41)
        try await syncB.syncOnce()
        try await syncA.syncOnce()
        #expect(try Self.rows(a, "audited") == Self.rows(b, "audited"))
    }

    @Test("a run of inserts over rows this replica knows (deleted here by a later delete, inserted twice in the run by two replicas) goes in by the registers: every replica ends with the rows a fresh replica of the log holds")
    func aRunOverKnownRowsFollowsTheRegisters() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try ["a", "b", "c", "fresh"].map { try Replica(folder, $0, migrations: Self.migrations) }
        let (a, b, c) = (replicas[0], replicas[1], replicas[2])
        let syncs = try replicas.map { try $0.client(url, tables: Self.synced) }
        let (syncA, syncB, syncC) = (syncs[0], syncs[1], syncs[2])
        for sync in syncs.dropLast() { try await sync.syncOnce() }
        // B holds rows 1–5 and their registers.
        try Self.insertReadings(1...5, into: a.path)
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        // C, offline, inserts rows 1–60 with values of its own; then A deletes rows 1–5, and B
        // learns of the deletes before C's older inserts.
        let cRows = (1...60).map { "(\($0), \(1_000 + $0), 'c \($0)', 'c-\($0)')" }.joined(separator: ", ")
        try sqlite3(c.path, "INSERT INTO readings (id, count, label, code) VALUES \(cRows)")
        try sqlite3(a.path, "DELETE FROM readings WHERE id <= 5")
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        try await syncC.syncOnce()
        // A inserts 41–80: rows 41–60 are twice in B's next batch, one run of 100 inserts.
        try Self.insertReadings(41...80, into: a.path)
        try await syncA.syncOnce()
        let progress = try await syncB.syncOnce()
        #expect(progress.downloaded >= 100, "\(progress)")
        // A inserted rows 41–60 without having seen C's inserts of them: concurrent edits, and
        // nothing else.
        let (edits, others) = (syncB.conflicts.value.filter { $0.kind == .concurrentEdit }, syncB.conflicts.value.filter { $0.kind != .concurrentEdit })
        #expect(others.isEmpty, "\(others.map(\.description))")
        #expect(Set(edits.map(\.key)) == Set((41...60).map { [SQLiteValue.integer(Int64($0))] }))
        try await syncC.syncOnce()
        try await syncA.syncOnce()
        try await syncs[3].syncOnce()

        let expected = try Self.rows(replicas[3], "readings")
        #expect(expected.count == 75, "rows 6–80")
        for replica in [a, b, c] { #expect(try Self.rows(replica, "readings") == expected, "\(replica.path)") }
        // Rows 1–5 stay deleted: the deletes outlive C's inserts.
        #expect(try !Self.rows(b, "readings").contains { $0.hasPrefix("3 | ") })
        #expect(Self.inserts(b, "readings", expecting: 80).count == 80)
    }

    @Test("a run's new rows changed again later in the same batch (updated, deleted, given another key) end as the log makes them: the run's first inserts leave nothing for the later changes to trust")
    func aRunsRowsChangedLaterInTheBatch() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try ["a", "b", "fresh"].map { try Replica(folder, $0, migrations: Self.migrations) }
        let (a, b) = (replicas[0], replicas[1])
        let syncs = try replicas.map { try $0.client(url, tables: Self.synced) }
        for sync in syncs { try await sync.syncOnce() }
        // One transaction of 60 new rows, then changes of four of them: B gets all of it in
        // one batch, a run of 60 inserts followed by the changes.
        try Self.insertReadings(1...60, into: a.path)
        try sqlite3(a.path, "UPDATE readings SET count = -10 WHERE id = 10")
        try sqlite3(a.path, "UPDATE readings SET label = 'changed', count = -20 WHERE id = 20")
        try sqlite3(a.path, "DELETE FROM readings WHERE id = 30")
        try sqlite3(a.path, "UPDATE readings SET id = 140 WHERE id = 40")
        try sqlite3(a.path, "UPDATE readings SET count = -140 WHERE id = 140")
        try await syncs[0].syncOnce()
        let progress = try await syncs[1].syncOnce()
        #expect(progress.downloaded >= 65, "\(progress)")
        #expect(syncs[1].conflicts.value.isEmpty, "\(syncs[1].conflicts.value.map(\.description))")
        try await syncs[2].syncOnce()

        let expected = try Self.rows(a, "readings")
        #expect(expected.count == 59)
        #expect(expected.contains { $0.hasPrefix("140 | -140 | ") } && expected.contains { $0.hasPrefix("10 | -10 | ") })
        #expect(try Self.rows(b, "readings") == expected)
        #expect(try Self.rows(replicas[2], "readings") == expected)
        #expect(Self.inserts(b, "readings", expecting: 60).count == 60)
    }

    @Test("an insert in the middle of a run that breaks a rule only this replica has loses as it would with the triggers: the batch goes again change by change, every other row journaled once")
    func aConstraintInTheRunFallsBackToTheTriggers() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        // B alone has a UNIQUE index on count: A's row 60 repeats row 30's count, which only B refuses.
        let stricter = Self.migrations + [Migration(version: 2, name: "unique counts", sql: "CREATE UNIQUE INDEX readings_by_count ON readings (count)")]
        let a = try Replica(folder, "a", migrations: Self.migrations), b = try Replica(folder, "b", migrations: stricter)
        let syncA = try a.client(url, tables: Self.synced), syncB = try b.client(url, tables: Self.synced)
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        try Self.insertReadings(1...100, into: a.path, repeating: (row: 60, countOf: 30))
        try await syncA.syncOnce()
        let live = b.store.changes().record()
        try await syncB.syncOnce()

        let lost = syncB.conflicts.value
        #expect(lost.count == 1 && lost.first?.key == [.integer(60)] && lost.first?.rule.contains("UNIQUE constraint failed: readings.count") == true, "\(lost.map(\.description))")
        #expect(try Self.rows(b, "readings").count == 99)
        #expect(live.waitForEvents(count: 99))
        #expect(live.values.count == 99 && live.values.allSatisfy { $0.operation == .insert && $0.table == "readings" })
        let applied = Self.inserts(b, "readings", expecting: 99), written = Self.inserts(a, "readings", expecting: 100)
        for id in Int64(1)...100 where id != 60 {
            #expect(applied[id] != nil && applied[id] == written[id], "row \(id)")
        }
        _ = try b.store.execute("INSERT INTO audited (id, note) VALUES (1, 'local')")
        #expect(try Self.rows(b, "audit_log").count == 1, "the triggers are on again")
    }
}
#endif
