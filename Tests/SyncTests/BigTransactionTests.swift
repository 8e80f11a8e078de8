#if SIGNALSTORE_SYNC
import Foundation
import Synchronization
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: a transaction bigger than a window of the journal", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct BigTransactionTests {
    @Test("a 12,018-entry sqlite3 transaction (inserts, updates of rows whose key a later window changes, key changes, deletes) reaches the other replica exactly")
    func bigTransactionCrossesExactly() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try await syncA.syncOnce()

        // Stamping reads the journal a window (5,000 entries) at a time. The status updates of
        // rows 3000 and 6000 sit in an earlier window than the key changes that follow all the
        // inserts: walking back, the later window must tell the earlier one their keys then.
        try sqlite3(a.path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'bulk' FROM n;
            UPDATE orders SET status = 'early' WHERE id % 1000 = 0;
            WITH RECURSIVE n(i) AS (SELECT 6001 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'bulk' FROM n;
            UPDATE orders SET id = id + 100000 WHERE id % 3000 = 0;
            DELETE FROM orders WHERE id % 2500 = 0;
            UPDATE orders SET purchase_num = 77 WHERE id > 100000;
            COMMIT;
            """)
        let uploaded = try await syncA.syncOnce()
        #expect(uploaded.uploaded == 12_000 + 6 + 4 + 4 + 4, "\(uploaded)")   // inserts, updates, key changes, deletes, updates
        try await syncB.syncOnce()

        #expect(try b.contents() == a.contents())
        #expect(try b.store.readConnection { try $0.scalar("SELECT count(*) FROM orders") } == .integer(12_000 - 4))
        let moved = try b.store.readConnection { try $0.statement("SELECT id, purchase_num, status FROM orders WHERE id > 100000 ORDER BY id").rows() }
        #expect(moved.map { $0.map(\.description).joined(separator: " ") } == ["103000 77 'early'", "106000 77 'early'", "109000 77 'bulk'", "112000 77 'bulk'"])
    }

    @Test("a big transaction is stamped a window at a time, in transactions of their own; local writes in between (rows of the unstamped windows re-keyed and deleted) leave every entry with the key it was written with")
    func stampedAWindowAtATime() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try await syncA.syncOnce()
        try sqlite3(a.path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'bulk' FROM n;
            UPDATE orders SET status = 'late' WHERE id IN (3000, 7000, 8000, 11000);
            COMMIT;
            """)
        // One window, in a transaction of its own, as a round stamps before its first upload.
        let window = try a.store.writeTransaction { connection -> (stamped: Int64, outbox: Int64) in
            let tables = try SyncedTables(nil, a.store.schema, connection)
            var position = try #require(try ReplicaState.read(connection))
            let before = position.stampedThrough
            try Outbox.stampPending(tables, at: &position, windows: 1, connection)
            try ReplicaState.save(position, connection)
            return (position.stampedThrough - before, try Outbox.count(after: 0, connection))
        }
        #expect(window.stamped == Outbox.window && window.outbox == Outbox.window)
        // Before the rest is stamped: rows whose inserts and updates wait to be stamped change
        // their keys or go, and a stamped row changes its key.
        try sqlite3(a.path, """
            BEGIN;
            UPDATE orders SET id = 107000 WHERE id = 7000;
            DELETE FROM orders WHERE id = 8000;
            UPDATE orders SET id = 111000, purchase_num = 5 WHERE id = 11000;
            UPDATE orders SET id = 103000 WHERE id = 3000;
            COMMIT;
            """)
        let uploaded = try await syncA.syncOnce()
        #expect(uploaded.uploaded == 12_000 + 4 + 5, "\(uploaded)")   // inserts, updates; the second transaction's changes
        try await syncB.syncOnce()
        #expect(try b.contents() == a.contents())
        let moved = try b.store.readConnection { try $0.statement("SELECT id, purchase_num, status FROM orders WHERE id > 100000 OR id = 8000 ORDER BY id").rows() }
        #expect(moved.map { $0.map(\.description).joined(separator: " ") } == ["103000 3000 'late'", "107000 7000 'late'", "111000 5 'late'"])
    }

    @Test("while a 15,000-row transaction goes up a window at a time (the next stamped while the server stores the last), another replica upserts the same keys in between: both, and a replica built from the log, end equal")
    func bigTransactionBesideAnotherWriter() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        try sqlite3(a.path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 15000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'bulk' FROM n;
            UPDATE orders SET status = 'edited' WHERE id % 997 = 0;
            COMMIT;
            """)
        // A window of A's after its first is refused, as if the log's lock were busy, until an
        // entry of another replica lies after A's first: A then applies what is new and tries
        // again, and B's upload, queued for the lock, goes in between. (Holding each window in
        // the lock for a while was not enough: on a loaded machine A held it longer than B's
        // longest wait every time, and B's entries all came after A's last window.)
        let oracle = ServerLogOracle(url: url)
        _ = try oracle.query("""
            CREATE FUNCTION %s.hold_back_window() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE big text;
            BEGIN
                SELECT origin INTO big FROM stored GROUP BY origin HAVING count(*) > 1000 LIMIT 1;
                IF big IS NOT NULL
                    AND EXISTS (SELECT 1 FROM %s.log WHERE origin = big AND position < (SELECT min(position) FROM stored))
                    AND NOT EXISTS (SELECT 1 FROM %s.log WHERE origin <> big
                        AND position > (SELECT min(position) FROM %s.log WHERE origin = big)) THEN
                    RAISE EXCEPTION 'held back until another replica uploads' USING ERRCODE = 'lock_not_available';
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER hold_back_window AFTER INSERT ON %s.log REFERENCING NEW TABLE AS stored
                FOR EACH STATEMENT EXECUTE FUNCTION %s.hold_back_window()
            """)
        // B writes rows of every window of A's transaction and uploads each at once, until A's
        // round is over: A's upload rounds apply them between its windows, beside the stamping
        // of the next.
        let sending = SendingFlag()
        let writer = Task {
            var round = 0
            while sending.isOn || round == 0 {
                let id = (round * 613) % 15_000 + 1
                try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status) VALUES (\(id), \(round), 'b') ON CONFLICT (id) DO UPDATE SET purchase_num = excluded.purchase_num, status = 'b'")
                try await syncB.syncOnce()
                round += 1
            }
        }
        try await syncA.syncOnce()
        sending.turnOff()
        try await writer.value
        _ = try oracle.query("DROP TRIGGER hold_back_window ON %s.log")
        for _ in 0..<2 {
            try await syncA.syncOnce()
            try await syncB.syncOnce()
        }
        #expect(try b.contents() == a.contents())
        #expect(try a.store.readConnection { try $0.scalar("SELECT count(*) FROM orders") } == .integer(15_000))
        // B's entries came in between A's windows, which is what this test is about.
        let between = try ServerLogOracle(url: url).query("""
            WITH big AS (SELECT origin FROM %s.log GROUP BY origin ORDER BY count(*) DESC LIMIT 1),
                 span AS (SELECT min(position) AS low, max(position) AS high FROM %s.log WHERE origin = (SELECT origin FROM big))
            SELECT count(*) FROM %s.log, span WHERE origin <> (SELECT origin FROM big) AND position > low AND position < high
            """)
        #expect((between.first.flatMap { Int($0) } ?? 0) > 0, "B's entries between A's first and last: \(between)")
        let c = try Replica(folder, "c")
        try await c.client(url).syncOnce()
        #expect(try c.contents() == a.contents())
    }

    @Test("the sender's sync process is killed (SIGKILL) three times while it stamps and uploads a 20,000-row transaction window by window, the other replica upserting the same keys in between: both, and a replica built from the log, end equal, and no entry is stored twice")
    func killedWhileSendingABigTransaction() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        try await a.client(url).syncOnce()
        try await b.client(url).syncOnce()
        try sqlite3(a.path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'bulk' FROM n;
            COMMIT;
            """)
        let oracle = ServerLogOracle(url: url)
        // The entries of the origin with the most in the log: A's, as B writes three.
        func storedOfA() throws -> Int {
            Int(try oracle.query("SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM %s.log GROUP BY origin) AS counts").first ?? "") ?? 0
        }
        var stored = 0, killedMidway = 0
        for kill in 0..<3 {
            let sync = try ChildProcess(signalstore, ["sync", "--json", "--postgres", url, "--db", a.path])
            // The kill lands once a further window is on the server: between the upload of one
            // window and the next, or while the next is stamped beside the server's store.
            let before = stored
            #expect(try await eventuallyAsync(timeout: .seconds(120)) {
                stored = try storedOfA()
                return stored > before || stored == 20_000
            }, "A's sync stored nothing more in 120 s: \(sync.error.value)")
            sync.send(SIGKILL)
            _ = sync.waitForExit(timeout: 10)
            if stored < 20_000 { killedMidway += 1 }
            let id = kill * 6_007 + 1
            try sqlite3(b.path, "INSERT INTO orders (id, purchase_num, status) VALUES (\(id), \(kill), 'b') ON CONFLICT (id) DO UPDATE SET purchase_num = excluded.purchase_num, status = 'b'")
            try await b.client(url).syncOnce()
        }
        #expect(killedMidway > 0, "every kill came after the whole transaction was on the server")
        try await settle([a, b], url)
        #expect(try b.contents() == a.contents())
        #expect(try a.store.readConnection { try $0.scalar("SELECT count(*) FROM orders") } == .integer(20_000))
        #expect(try oracle.duplicateEntries().isEmpty, "an entry was stored twice")
        let c = try Replica(folder, "c")
        try await c.client(url).syncOnce()
        #expect(try c.contents() == a.contents())
    }

    @Test("rows too big for one packed download batch arrive over several, none skipped")
    func bigRowsSpanSeveralBatches() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try await syncA.syncOnce()
        // Three rows of 17 MB: the third starts past the 32 MiB a packed batch holds
        // (PackedEntries.byteLimit), so it comes in a second batch; the cursor must stop
        // after the second row, not jump to the log's head.
        let size = 17_000_000
        try #require(PackedEntries.byteLimit < 2 * size && PackedEntries.byteLimit > size)
        try sqlite3(a.path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)
            INSERT INTO orders (id, purchase_num, status) SELECT i, i, hex(randomblob(\(size / 2))) FROM n
            """)
        #expect(try await syncA.syncOnce().uploaded == 3)
        try await syncB.syncOnce()
        let digest = "SELECT group_concat(id || ':' || length(status) || ':' || substr(status, 1, 16), ' ') FROM orders"
        let onB = try b.store.readConnection { try $0.scalar(digest) }
        #expect(onB == (try a.store.readConnection { try $0.scalar(digest) }))
        #expect(try b.store.readConnection { try $0.scalar("SELECT count(*) FROM orders WHERE length(status) = \(size)") } == .integer(3))
    }
}

/// Whether A is still sending its big transaction, read by B's writer task.
private final class SendingFlag: Sendable {
    private let on = Atomic<Bool>(true)
    var isOn: Bool { on.load(ordering: .acquiring) }
    func turnOff() { on.store(false, ordering: .releasing) }
}
#endif
