import Foundation
import SignalStore

/// What a replica keeps about sync in its own database file, in tables the journal does not
/// capture (`_signalstore_sync*`): its origin id, how far it has read the server's log and its
/// own journal, its clock, the outbox of stamped entries not yet uploaded, and the winning
/// stamp of every synced column.
///
/// Every change runs on the store's writer connection inside a write transaction, so the state
/// always moves together with the rows it describes; ``read(_:)`` also runs on a reader.
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
                origin TEXT NOT NULL, value TEXT,
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

    /// Forgets all sync state: the next ``open(_:_:)`` gives the file a new origin id and puts
    /// its rows in the outbox again. For a copy of another replica's file.
    static func forget(_ connection: Connection) throws {
        for table in [stateTable, outboxTable, stampsTable] {
            try connection.execute("DROP TABLE IF EXISTS \(table)")
        }
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
        try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(outboxTable)])?.integerValue ?? 0
    }

    // MARK: Stamps

    /// What the stamps table keeps per row: the latest insert's stamp, the latest delete's, and
    /// per column the latest update's stamp and value. Each is a "keep the maximum" register,
    /// so the order in which entries arrive does not change them, and the row is a function of
    /// them (see ``RemoteApplier``).
    enum Register {
        case insert, delete, column(String)

        var name: String {
            switch self {
            case .insert: "#insert"
            case .delete: "#delete"
            case .column(let name): name
            }
        }
    }

    struct StoredStamp {
        let stamp: Stamp
        /// An update's value (``SyncValueCoding/encode(_:)``).
        let value: String?
    }

    static func stamp(_ table: String, _ key: String, _ register: Register, _ connection: Connection) throws -> StoredStamp? {
        let rows = try connection.statement("SELECT hlc, origin, value FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col = ?")
            .rows([.text(table), .text(key), .text(register.name)])
        guard let row = rows.first, case .integer(let hlc) = row[0], case .text(let origin) = row[1] else { return nil }
        let value: String? = if case .text(let text) = row[2] { text } else { nil }
        return StoredStamp(stamp: Stamp(clock: HybridLogicalClock(rawValue: hlc), origin: origin), value: value)
    }

    /// Raises the register to `stamp` (with `value`) if `stamp` is later than what it holds;
    /// returns whether it did. One statement: the upsert's `WHERE` keeps a later stamp.
    @discardableResult
    static func raise(_ register: Register, _ table: String, _ key: String, to stamp: Stamp, value: String? = nil, _ connection: Connection) throws -> Bool {
        try connection.statement("""
            INSERT INTO \(stampsTable) (tbl, row_key, col, hlc, origin, value) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value
            WHERE excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin)
            """).run([.text(table), .text(key), .text(register.name), .integer(stamp.clock.rawValue), .text(stamp.origin), value.map(SQLiteValue.text) ?? .null])
        return connection.changes > 0
    }

    /// The update registers of a row: column → latest stamp and value.
    static func columnStamps(_ table: String, _ key: String, _ connection: Connection) throws -> [String: StoredStamp] {
        var result: [String: StoredStamp] = [:]
        for row in try connection.statement("SELECT col, hlc, origin, value FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col NOT IN ('#insert', '#delete')")
            .rows([.text(table), .text(key)]) {
            guard case .text(let column) = row[0], case .integer(let hlc) = row[1], case .text(let origin) = row[2] else { continue }
            let value: String? = if case .text(let text) = row[3] { text } else { nil }
            result[column] = StoredStamp(stamp: Stamp(clock: HybridLogicalClock(rawValue: hlc), origin: origin), value: value)
        }
        return result
    }
}
