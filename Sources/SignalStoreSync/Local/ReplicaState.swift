import Foundation
import SignalStore

/// What a replica keeps about sync in its own database file, in tables the journal does not
/// capture (`_signalstore_sync*`): its origin id, how far it has read the server's log and its
/// own journal, its clock, the outbox of stamped entries not yet uploaded, and the winning
/// stamp of every synced column.
///
/// Every function runs on the store's writer connection inside a write transaction, so the
/// state always moves together with the rows it describes.
enum ReplicaState {
    static let stateTable = "_signalstore_sync_state"
    static let outboxTable = "_signalstore_sync_outbox"
    static let stampsTable = "_signalstore_sync_stamps"
    /// The durable feed consumer that keeps unstamped journal entries from being pruned.
    static let consumer = "sync"

    /// The replica's position, read at the start of a transaction.
    struct Position: Sendable, Equatable {
        /// This database file's origin id.
        var origin: String
        /// The highest server log position applied.
        var serverCursor: Int64
        /// The latest stamp this replica made or saw.
        var clock: HybridLogicalClock
        /// The journal seq through which every entry is in the outbox (or was the echo of an
        /// applied remote change).
        var stampedThrough: Int64
    }

    /// Creates the tables on first use and returns the position. A database that never synced
    /// gets a new origin id, and its existing rows of the synced tables go to the outbox as
    /// inserts, so rows written before sync started (and journal entries pruned since) reach
    /// the other replicas too.
    static func open(_ tables: SyncedTables, _ connection: Connection) throws -> Position {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(stateTable) (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(outboxTable) (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, hlc INTEGER NOT NULL, tbl TEXT NOT NULL,
                row_key TEXT NOT NULL, op TEXT NOT NULL, col TEXT, payload TEXT);
            CREATE TABLE IF NOT EXISTS \(stampsTable) (
                tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
                origin TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (tbl, row_key, col)) WITHOUT ROWID;
            """)
        if let position = try read(connection) { return position }
        let head = try Journal.highestSeq(connection)
        _ = try Journal.register(consumer: consumer, connection)
        var position = Position(origin: UUID().uuidString.lowercased(), serverCursor: 0, clock: HybridLogicalClock(rawValue: 0), stampedThrough: head)
        try Outbox.snapshot(tables, at: &position, connection)
        try save(position, connection)
        return position
    }

    /// Gives this file a new origin id: for a copy of another replica's file.
    static func renewOrigin(_ connection: Connection) throws {
        try connection.statement("UPDATE \(stateTable) SET value = ? WHERE name = 'origin'").run([.text(UUID().uuidString.lowercased())])
    }

    static func read(_ connection: Connection) throws -> Position? {
        var values: [String: SQLiteValue] = [:]
        for row in try connection.statement("SELECT name, value FROM \(stateTable)").rows() {
            if case .text(let name) = row[0] { values[name] = row[1] }
        }
        guard case .text(let origin)? = values["origin"], case .integer(let cursor)? = values["server_cursor"],
              case .integer(let clock)? = values["clock"], case .integer(let stamped)? = values["stamped_through"]
        else { return nil }
        return Position(origin: origin, serverCursor: cursor, clock: HybridLogicalClock(rawValue: clock), stampedThrough: stamped)
    }

    static func save(_ position: Position, _ connection: Connection) throws {
        let statement = try connection.statement("INSERT INTO \(stateTable) (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value")
        try statement.run([.text("origin"), .text(position.origin)])
        try statement.run([.text("server_cursor"), .integer(position.serverCursor)])
        try statement.run([.text("clock"), .integer(position.clock.rawValue)])
        try statement.run([.text("stamped_through"), .integer(position.stampedThrough)])
        try Journal.acknowledge(through: position.stampedThrough, consumer: consumer, connection)
    }

    /// The highest outbox seq ever used in this file (uploaded or not).
    static func highestOutboxSeq(_ connection: Connection) throws -> Int64 {
        let rows = try connection.statement("SELECT seq FROM sqlite_sequence WHERE name = ?").rows([.text(outboxTable)])
        guard case .integer(let seq)? = rows.first?.first else { return 0 }
        return seq
    }

    // MARK: Stamps

    /// The row-level column name in the stamps table: the row's latest insert or delete.
    static let rowMarker = ""

    struct StoredStamp {
        let stamp: Stamp
        let isDeleted: Bool
    }

    static func stamp(_ table: String, _ key: String, _ column: String, _ connection: Connection) throws -> StoredStamp? {
        let rows = try connection.statement("SELECT hlc, origin, deleted FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col = ?")
            .rows([.text(table), .text(key), .text(column)])
        guard let row = rows.first, case .integer(let hlc) = row[0], case .text(let origin) = row[1] else { return nil }
        return StoredStamp(stamp: Stamp(clock: HybridLogicalClock(rawValue: hlc), origin: origin), isDeleted: row[2] == .integer(1))
    }

    static func setStamp(_ stamp: Stamp, _ table: String, _ key: String, _ column: String, deleted: Bool = false, _ connection: Connection) throws {
        try connection.statement("""
            INSERT INTO \(stampsTable) (tbl, row_key, col, hlc, origin, deleted) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, deleted = excluded.deleted
            """).run([.text(table), .text(key), .text(column), .integer(stamp.clock.rawValue), .text(stamp.origin), .integer(deleted ? 1 : 0)])
    }

    /// A new incarnation of the row (insert) or its end (delete): one row-level stamp, and the
    /// column stamps of the previous incarnation go.
    static func setRowStamp(_ stamp: Stamp, _ table: String, _ key: String, deleted: Bool, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col <> ''").run([.text(table), .text(key)])
        try setStamp(stamp, table, key, rowMarker, deleted: deleted, connection)
    }
}
