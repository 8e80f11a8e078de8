#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// One statement that sets several columns of a row reaches every replica as it was written,
/// though the log holds one entry per column: a composite foreign key moved to another parent,
/// or a CHECK that reads two columns, is broken by each column alone (issue 39: before, every
/// other replica refused both entries while the writer kept them, and the replicas diverged).
@Suite("Sync: one statement's updates of a row stand or lose together", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct OneStatementUpdateTests {
    static let migrations = [
        Migration(version: 1, name: "slots and spans", sql: """
            CREATE TABLE slots (region TEXT, number INTEGER, PRIMARY KEY (region, number));
            CREATE TABLE bookings (id INTEGER PRIMARY KEY, region TEXT, number INTEGER,
                FOREIGN KEY (region, number) REFERENCES slots (region, number) ON DELETE SET NULL);
            CREATE TABLE spans (id INTEGER PRIMARY KEY, lo INTEGER NOT NULL, hi INTEGER NOT NULL, CHECK (lo <= hi));
            """),
    ]

    private func replica(_ folder: TemporaryDirectory, _ name: String) throws -> Replica {
        try Replica(folder, name, migrations: Self.migrations)
    }

    private func everything(_ replica: Replica) throws -> [[SQLiteValue]] {
        try replica.store.readConnection { connection in
            try connection.statement("SELECT id, region, number FROM bookings ORDER BY id").rows()
                + connection.statement("SELECT id, lo, hi FROM spans ORDER BY id").rows()
        }
    }

    /// Two replicas that hold the starting rows, and their syncs.
    private func started(_ folder: TemporaryDirectory, _ url: String) async throws -> (a: Replica, b: Replica, syncA: SyncClient, syncB: SyncClient) {
        let a = try replica(folder, "a"), b = try replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, """
            INSERT INTO slots VALUES ('home', 0), ('away', 1), ('away', 2);
            INSERT INTO bookings VALUES (1, 'home', 0), (2, 'home', 0);
            INSERT INTO spans VALUES (1, 0, 10), (2, 0, 10);
            """)
        for client in [syncA, syncB] { try await client.syncOnce() }
        return (a, b, syncA, syncB)
    }

    /// Expects `replicas` and a replica that joins now to hold `rows`, and nothing listed as lost.
    private func expectEverywhere(_ rows: [[SQLiteValue]], _ replicas: [(Replica, SyncClient)], _ folder: TemporaryDirectory, _ url: String) async throws {
        for (replica, sync) in replicas {
            #expect(try everything(replica) == rows, "\(replica.path): \(sync.conflicts.value)")
            #expect(sync.conflicts.value.isEmpty, "\(replica.path): \(sync.conflicts.value)")
        }
        let late = try replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try everything(late) == rows)
    }

    /// A's statements: booking 1 to slot ('away', 1), span 1 to 20…30.
    private let movesOfA = "UPDATE bookings SET region = 'away', number = 1 WHERE id = 1; UPDATE spans SET lo = 20, hi = 30 WHERE id = 1"

    @Test("a replica with nothing pending applies another's moves of a composite reference and of a CHECKed pair")
    func movesReachAReplicaWithNothingPending() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let (a, b, syncA, syncB) = try await started(folder, url)
        try sqlite3(a.path, movesOfA)
        for client in [syncA, syncB] { try await client.syncOnce() }

        try await expectEverywhere([
            [.integer(1), .text("away"), .integer(1)], [.integer(2), .text("home"), .integer(0)],
            [.integer(1), .integer(20), .integer(30)], [.integer(2), .integer(0), .integer(10)],
        ], [(a, syncA), (b, syncB)], folder, url)
    }

    @Test("a replica with such moves of its own pending applies another's, and its own stand when its pending changes are replayed after the batch")
    func movesStandBesidePendingOnes() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let (a, b, syncA, syncB) = try await started(folder, url)
        try sqlite3(a.path, movesOfA)
        try sqlite3(b.path, "UPDATE bookings SET region = 'away', number = 2 WHERE id = 2; UPDATE spans SET lo = 40, hi = 50 WHERE id = 2")
        try await syncA.syncOnce()
        try await syncB.syncOnce()   // applies A's beside its own pending moves, then replays them
        try await syncB.syncOnce()
        try await syncA.syncOnce()

        try await expectEverywhere([
            [.integer(1), .text("away"), .integer(1)], [.integer(2), .text("away"), .integer(2)],
            [.integer(1), .integer(20), .integer(30)], [.integer(2), .integer(40), .integer(50)],
        ], [(a, syncA), (b, syncB)], folder, url)
    }
}
#endif
