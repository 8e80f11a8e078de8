#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// When the server's log confirms this replica's own deletes, the `SET NULL` they made here
/// becomes the server state of every row that referenced them, as on every replica that applies
/// them from the log (issue 39, chaos seed 183): for many parents at once, text keys and
/// composite foreign keys included.
@Suite("Sync: confirmed own deletes set the references' server state to NULL", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct OwnDeleteServerStateTests {
    static let migrations = [
        Migration(version: 1, name: "teams and slots", sql: """
            CREATE TABLE teams (code TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE players (id INTEGER PRIMARY KEY, team_code TEXT REFERENCES teams (code) ON DELETE SET NULL, note TEXT);
            CREATE TABLE slots (region TEXT, number INTEGER, PRIMARY KEY (region, number));
            CREATE TABLE bookings (id INTEGER PRIMARY KEY, region TEXT, number INTEGER,
                FOREIGN KEY (region, number) REFERENCES slots (region, number) ON DELETE SET NULL);
            CREATE TABLE clubs (id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT);
            CREATE TABLE members (id INTEGER PRIMARY KEY, club_code TEXT REFERENCES clubs (code) ON DELETE SET NULL);
            """),
    ]

    /// The server state of each row of `table` (by its integer key), `nil` where the log has none.
    private func serverRows(_ replica: Replica, _ table: String) throws -> [Int64: [String: SQLiteValue]] {
        try replica.store.readConnection { connection in
            var result: [Int64: [String: SQLiteValue]] = [:]
            let keys = try connection.statement("SELECT DISTINCT row_key FROM _signalstore_sync_stamps WHERE tbl = ?").rows([.text(table)])
            for case .text(let key) in keys.compactMap(\.first) {
                guard let row = try StampTable.serverRow(table, key, connection), let id = row["id"]?.integerValue else { continue }
                result[id] = row
            }
            return result
        }
    }

    @Test("chaos seed 183 at scale: B's moves of 600 players and 10 bookings lose to A's, and B deleted their new parents (600 text keys, past the 500 values one lookup takes; composite keys); once B's deletes are confirmed, the server state of every reference is NULL, as the log makes it")
    func manyParentsTextAndCompositeKeys() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a", migrations: Self.migrations), b = try Replica(folder, "b", migrations: Self.migrations)
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, """
            INSERT INTO teams VALUES ('home', 'home');
            INSERT INTO slots VALUES ('home', 0);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
            INSERT INTO players SELECT i, 'home', NULL FROM n;
            INSERT INTO teams SELECT 'd' || id, NULL FROM players UNION ALL SELECT 'e' || id, NULL FROM players;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
            INSERT INTO bookings SELECT i, 'home', 0 FROM n;
            INSERT INTO slots SELECT 'd', id FROM bookings UNION ALL SELECT 'e', id FROM bookings;
            """)
        for client in [syncA, syncB] { try await client.syncOnce() }
        try sqlite3(a.path, "UPDATE players SET team_code = 'd' || id; UPDATE bookings SET region = 'd', number = id")
        try await syncA.syncOnce()
        // B, before it hears of A's moves: its own moves (stamped later) and its deletes of the
        // parents A moved to, in one transaction.
        try sqlite3(b.path, """
            BEGIN;
            UPDATE players SET team_code = 'e' || id; UPDATE bookings SET region = 'e', number = id;
            DELETE FROM teams WHERE code LIKE 'd%'; DELETE FROM slots WHERE region = 'd';
            COMMIT;
            """)
        try sqlite3(a.path, "DELETE FROM teams WHERE code LIKE 'e%'; DELETE FROM slots WHERE region = 'e'")
        try await syncA.syncOnce()
        // B's moves lose (their parents are gone first in the log); its deletes go up after A's
        // moves, where their SET NULL acts on every reference.
        try await syncB.syncOnce()
        try await syncB.syncOnce()
        try await syncA.syncOnce()

        let players = try serverRows(b, "players"), bookings = try serverRows(b, "bookings")
        #expect(players.count == 600 && bookings.count == 10)
        let named = players.filter { $0.value["team_code"] != .null }
        #expect(named.isEmpty, "\(named.count) server states still name a deleted team, e.g. \(named.first.map { "\($0)" } ?? "")")
        let booked = bookings.filter { $0.value["region"] != .null || $0.value["number"] != .null }
        #expect(booked.isEmpty, "server states still name a deleted slot: \(booked)")
        let nulls = "SELECT (SELECT count(*) FROM players WHERE team_code IS NULL), (SELECT count(*) FROM bookings WHERE region IS NULL AND number IS NULL)"
        for replica in [a, b] {
            #expect(try replica.store.readConnection { try $0.statement(nulls).rows() } == [[.integer(600), .integer(10)]], "\(replica.path)")
        }
        let late = try Replica(folder, "late", migrations: Self.migrations)
        let syncLate = try late.client(url)
        try await syncLate.syncOnce()
        #expect(try late.store.readConnection { try $0.statement(nulls).rows() } == [[.integer(600), .integer(10)]], "\(syncLate.conflicts.value.prefix(3))")
    }

    @Test("issue 39, chaos seed 106 with faults (and the shape of seed 44): C moves a player to another team, then deletes the player's first team and makes it again, all pending; A deletes the team C moved to; C's move loses, and the player goes back to its first team as the log has it, where C's delete, coming after it in the log, sets it to NULL as on every replica, though the team is here again; once that delete passes in the log, the player's server state holds the NULL (before, the player kept its first team on C only)")
    func ownDeleteAndInsertAgainUnderALosingMove() async throws {
        let replicas = try await TwoReplicas("c", seeded: "INSERT INTO teams VALUES ('eight', NULL), ('ten', 'first'); INSERT INTO players VALUES (15, 'ten', NULL)")
        let (a, c, syncA, syncC) = (replicas.a, replicas.other, replicas.syncA, replicas.syncOther)
        // C, before it hears of A's delete: the player moved, its first team deleted and made again.
        try sqlite3(c.path, """
            UPDATE players SET team_code = 'eight' WHERE id = 15;
            DELETE FROM teams WHERE code = 'ten';
            INSERT INTO teams VALUES ('ten', 'again');
            """)
        try sqlite3(a.path, "DELETE FROM teams WHERE code = 'eight'")
        try await syncA.syncOnce()
        // C applies A's delete: its move loses. Its delete and insert of 'ten' then go up, after
        // the player's first team in the log.
        try await syncC.syncOnce()
        try await syncC.syncOnce()
        try await syncA.syncOnce()

        try await expectCleared("players", "team_code", id: 15, replicas)
        #expect(syncC.conflicts.value.map(\.column) == ["team_code"], "only C's move loses: \(syncC.conflicts.value)")
    }

    @Test("issue 39, chaos seed 36 with faults: B moves a player away from a team and deletes the team, both pending; the log then deletes the team B moved to, deletes the player's team and inserts it again; where the log's delete of the team comes, B does not have the team (its own delete is pending), and records the NULL its SET NULL makes of the player on every replica all the same (before, B's server state kept the team, and a row set aside later got it back on B only)")
    func logsDeleteOfARowDeletedHere() async throws {
        let replicas = try await TwoReplicas("b", seeded: "INSERT INTO teams VALUES ('nine', NULL), ('ten', NULL); INSERT INTO players VALUES (8, 'nine', NULL)")
        let (b, syncA, syncB) = (replicas.other, replicas.syncA, replicas.syncOther)
        // B, before it hears of the log's deletes: the player moved away, then its team deleted
        // (the move keeps the delete's SET NULL off the player here).
        try sqlite3(b.path, "UPDATE players SET team_code = 'ten' WHERE id = 8; DELETE FROM teams WHERE code = 'nine'")
        // Another replica's changes, stamped after B's: 'ten' goes (B's move loses), 'nine' goes
        // (clearing the player where the log has it on 'nine') and comes back.
        let later = (Int64(Date().timeIntervalSince1970 * 1_000) + 60_000) << 16
        try ServerLogOracle(url: replicas.url).append([
            ("y", 1, later, "teams", #"[{"t":"ten"}]"#, "delete", nil, nil),
            ("y", 2, later + 1, "teams", #"[{"t":"nine"}]"#, "delete", nil, nil),
            ("y", 3, later + 2, "teams", #"[{"t":"nine"}]"#, "insert", nil, #"{"code":{"t":"nine"},"name":{"t":"again"}}"#),
        ])
        try await syncB.syncOnce()
        try await syncB.syncOnce()
        try await syncA.syncOnce()

        try await expectCleared("players", "team_code", id: 8, replicas)
    }

    @Test("C deletes a team and makes it again, both pending, before A's move of a player onto the team reaches it; the log puts the move first, so C's delete clears the player on every replica, C's own included, and nothing is listed as lost")
    func ownDeleteClearsARowThatReferencedTheParentOnlyAfterIt() async throws {
        let replicas = try await TwoReplicas("c", seeded: "INSERT INTO teams VALUES ('nine', NULL); INSERT INTO players VALUES (8, NULL, NULL)")
        // C, before it hears of the move: the team deleted (nothing referenced it here) and made
        // again. C applies the move under them, and uploads them after it: on every other
        // replica, the delete's SET NULL takes the team from the player.
        try await replicas.inLogOrder(
            first: "UPDATE players SET team_code = 'nine' WHERE id = 8",
            thenOther: "DELETE FROM teams WHERE code = 'nine'; INSERT INTO teams VALUES ('nine', 'again')"
        )
        try await expectCleared("players", "team_code", id: 8, replicas)
        #expect(try replicas.other.store.readConnection { try $0.statement("SELECT code, name FROM teams").rows() } == [[.text("nine"), .text("again")]])
    }

    @Test("C deletes a club and makes a new one with its code (a UNIQUE column, not the key, that members reference), both pending, before A's move of a member onto the code reaches it; the log puts the move first, so C's delete clears the member on every replica. On C nothing fails when the move comes (the code is there, in another row), and only confirming C's delete brings the NULL to C's row (without that write at the confirmation, checked, the member kept the code on C only)")
    func ownDeleteOfAParentReferencedByAUniqueColumn() async throws {
        let replicas = try await TwoReplicas("c", seeded: "INSERT INTO clubs VALUES (1, 'nine', NULL); INSERT INTO members VALUES (8, NULL)")
        try await replicas.inLogOrder(
            first: "UPDATE members SET club_code = 'nine' WHERE id = 8",
            thenOther: "DELETE FROM clubs WHERE id = 1; INSERT INTO clubs VALUES (2, 'nine', 'again')"
        )
        try await expectCleared("members", "club_code", id: 8, replicas)
        #expect(try replicas.other.store.readConnection { try $0.statement("SELECT id, code FROM clubs").rows() } == [[.integer(2), .text("nine")]])
    }

    @Test("C deletes a club (members reference its code, a UNIQUE column, not the key), pending, before A's move of a member onto the code reaches it; the log puts the move first, so the move stands and C's delete clears the member on every replica, and nothing is listed as lost on either")
    func ownPendingDeleteOfAParentReferencedByAUniqueColumn() async throws {
        let replicas = try await TwoReplicas("c", seeded: "INSERT INTO clubs VALUES (1, 'nine', NULL); INSERT INTO members VALUES (8, NULL)")
        try await replicas.inLogOrder(first: "UPDATE members SET club_code = 'nine' WHERE id = 8", thenOther: "DELETE FROM clubs WHERE id = 1")
        try await expectCleared("members", "club_code", id: 8, replicas)
    }

    /// A fresh schema, replica "a" and another of ``migrations``, `seeded` written on "a" with
    /// the `sqlite3` shell, and both synced once.
    private struct TwoReplicas {
        let folder = TemporaryDirectory()
        let url: String
        let a: Replica, other: Replica
        let syncA: SyncClient, syncOther: SyncClient

        init(_ name: String, seeded: String) async throws {
            url = try TestServer.freshURL()
            a = try Replica(folder, "a", migrations: OwnDeleteServerStateTests.migrations)
            other = try Replica(folder, name, migrations: OwnDeleteServerStateTests.migrations)
            syncA = try a.client(url)
            syncOther = try other.client(url)
            try sqlite3(a.path, seeded)
            for client in [syncA, syncOther] { try await client.syncOnce() }
        }

        /// `first` written on "a" and uploaded; then `pending` written on the other replica
        /// before it hears of it, which applies `first` under it and uploads it after, and
        /// "a" applies that. Nothing is listed as lost on either.
        func inLogOrder(first: String, thenOther pending: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            try sqlite3(a.path, first)
            try await syncA.syncOnce()
            try sqlite3(other.path, pending)
            try await syncOther.syncOnce()
            try await syncOther.syncOnce()
            try await syncA.syncOnce()
            #expect(syncOther.conflicts.value.isEmpty && syncA.conflicts.value.isEmpty, "nothing lost: \(syncOther.conflicts.value) \(syncA.conflicts.value)", sourceLocation: sourceLocation)
        }
    }

    /// `column` of the row `id` of `table` is `NULL` on both replicas and on a replica built
    /// from the log, and the other replica's server state of the table is "a"'s, with the
    /// column `NULL` in it: what a row set aside later goes back to.
    private func expectCleared(_ table: String, _ column: String, id: Int64, _ replicas: TwoReplicas) async throws {
        let (subject, reference) = (replicas.other, replicas.a)
        let late = try Replica(replicas.folder, "late", migrations: Self.migrations)
        try await late.client(replicas.url).syncOnce()
        for replica in [reference, subject, late] {
            #expect(try replica.store.readConnection { try $0.statement("SELECT \(column) FROM \(table) WHERE id = \(id)").rows() } == [[.null]], "\(replica.path)")
        }
        let server = try serverRows(subject, table)
        #expect(server[id]?[column] == .null, "the server state of row \(id) of \(table) on \(subject.path): \(server)")
        #expect(try server == serverRows(reference, table))
    }
}
#endif
