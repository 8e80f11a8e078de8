#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// The stamps table is a rowid table (new registers fill pages at its end); files that synced
/// with an earlier SignalStore hold it `WITHOUT ROWID`, ordered by row key, and are copied into
/// the rowid layout once, keeping every register.
@Suite("Sync: the stamps table's layout, and files that synced with an earlier SignalStore")
struct StampTableLayoutTests {
    private let folder = TemporaryDirectory()

    private func stamp(_ clock: Int64, _ origin: String) -> Stamp { Stamp(clock: HybridLogicalClock(rawValue: clock), origin: origin) }

    private func isWithoutRowID(_ connection: Connection) throws -> Bool {
        try TableSchema.read(StampTable.name, connection)?.isWithoutRowID == true
    }

    @Test("a new file gets a rowid table keyed by table, row and register")
    func newFile() throws {
        let connection = try Connection(path: folder.url.appendingPathComponent("new.sqlite").path)
        try StampTable.create(connection)
        #expect(try !isWithoutRowID(connection))
        try StampTable.raise(.insert, "t", "k", to: stamp(10, "b"), value: "{}", fromServer: true, connection)
        #expect(try !StampTable.raise(.insert, "t", "k", to: stamp(5, "b"), value: "{}", fromServer: true, connection))
        #expect(try connection.scalar("SELECT count(*) FROM \(StampTable.name)") == .integer(1))
    }

    @Test("an older file's WITHOUT ROWID table moves to the rowid layout in one transaction, every register and server state kept")
    func olderFile() throws {
        let connection = try Connection(path: folder.url.appendingPathComponent("old.sqlite").path)
        try connection.execute("""
            CREATE TABLE \(StampTable.name) (
                tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
                origin TEXT NOT NULL, value TEXT, base_hlc INTEGER, base_origin TEXT, base_value TEXT,
                PRIMARY KEY (tbl, row_key, col)) WITHOUT ROWID;
            INSERT INTO \(StampTable.name) VALUES ('t', 'k', 'c', 20, 'a', '"mine"', 10, 'b', '"log"');
            INSERT INTO \(StampTable.name) VALUES ('t', 'k', '#insert', 5, 'b', '{"c":"first"}', 5, 'b', NULL);
            """)
        try connection.transaction { try StampTable.create(connection) }
        #expect(try !isWithoutRowID(connection))
        let column = try StampTable.state("t", "k", .column("c"), connection)
        #expect(column?.current == StoredStamp(stamp: stamp(20, "a"), value: "\"mine\""))
        #expect(column?.server == StoredStamp(stamp: stamp(10, "b"), value: "\"log\""))
        let insert = try StampTable.state("t", "k", .insert, connection)
        #expect(insert?.current == insert?.server && insert?.server?.value == "{\"c\":\"first\"}")
        // The key still holds: a later raise updates the one row, an earlier one is refused.
        #expect(try StampTable.raise(.column("c"), "t", "k", to: stamp(30, "b"), value: "\"later\"", fromServer: true, connection))
        #expect(try connection.scalar("SELECT count(*) FROM \(StampTable.name)") == .integer(2))
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%without_rowid%'") == .integer(0))
    }
}
#endif
