#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// What a replica keeps about sync in its own database file, in tables the journal does not
/// capture (`_signalstore_sync*`): its origin id, how far it has read the server's log and its
/// own journal, its clock, the outbox of stamped entries not yet uploaded, the winning stamp of
/// every synced column, and the changes that lost to a constraint (``ConflictLog``).
///
/// Every change runs on the store's writer connection inside a write transaction, so the state
/// always moves together with the rows it describes; ``read(_:)`` also runs on a reader.
enum ReplicaState {
    static let stateTable = "_signalstore_sync_state"
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
        /// The outbox seq through which the server holds this replica's entries. They stay in
        /// the outbox, pending, until the cursor passes them in the server's log.
        var uploadedThrough: Int64 = 0
    }

    /// Creates the tables on first use and returns the position. A database that never synced
    /// gets a new origin id, and its existing rows of the synced tables go to the outbox as
    /// inserts, so rows written before sync started (and journal entries pruned since) reach
    /// the other replicas too.
    static func open(_ tables: SyncedTables, _ connection: Connection) throws -> Position {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(stateTable) (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(stampsTable) (
                tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
                origin TEXT NOT NULL, value TEXT, base_hlc INTEGER, base_origin TEXT, base_value TEXT,
                PRIMARY KEY (tbl, row_key, col)) WITHOUT ROWID;
            """)
        try addServerStateColumns(connection)
        try Outbox.create(connection)
        try ConflictLog.create(connection)
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
        for table in [stateTable, Outbox.table, stampsTable, ConflictLog.table, HeldScopes.table] {
            try connection.execute("DROP TABLE IF EXISTS \(table)")
        }
    }

    /// Forgets every register of a row that left this replica (its scope is no longer held
    /// here): if it comes back, its history comes whole, and no stamp of before stands in its way.
    static func forgetRow(_ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(stampsTable) WHERE tbl = ? AND row_key = ?").run([.text(table), .text(key)])
    }

    static func read(_ connection: Connection) throws -> Position? {
        var values: [String: SQLiteValue] = [:]
        for row in try connection.statement("SELECT name, value FROM \(stateTable)").rows() {
            if case .text(let name) = row[0] { values[name] = row[1] }
        }
        guard case .text(let origin)? = values["origin"], case .integer(let cursor)? = values["server_cursor"],
              case .integer(let clock)? = values["clock"], case .integer(let stamped)? = values["stamped_through"]
        else { return nil }
        let uploaded = values["uploaded_through"]?.integerValue ?? 0
        return Position(origin: origin, serverCursor: cursor, clock: HybridLogicalClock(rawValue: clock), stampedThrough: stamped, uploadedThrough: uploaded)
    }

    static func save(_ position: Position, _ connection: Connection) throws {
        let statement = try connection.statement("INSERT INTO \(stateTable) (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value")
        try statement.run([.text("origin"), .text(position.origin)])
        try statement.run([.text("server_cursor"), .integer(position.serverCursor)])
        try statement.run([.text("clock"), .integer(position.clock.rawValue)])
        try statement.run([.text("stamped_through"), .integer(position.stampedThrough)])
        try statement.run([.text("uploaded_through"), .integer(position.uploadedThrough)])
        try Journal.acknowledge(through: position.stampedThrough, consumer: consumer, connection)
    }

    /// Files that synced with an earlier SignalStore have a stamps table without the server
    /// state columns: everything they hold counts as the server's.
    private static func addServerStateColumns(_ connection: Connection) throws {
        let columns = try TableSchema.read(stampsTable, connection)?.columnNames ?? []
        guard !columns.contains("base_hlc") else { return }
        try connection.execute("""
            ALTER TABLE \(stampsTable) ADD COLUMN base_hlc INTEGER;
            ALTER TABLE \(stampsTable) ADD COLUMN base_origin TEXT;
            ALTER TABLE \(stampsTable) ADD COLUMN base_value TEXT;
            UPDATE \(stampsTable) SET base_hlc = hlc, base_origin = origin, base_value = value;
            """)
    }

    // MARK: Stamps

    /// What the stamps table keeps per row: the latest insert's stamp and row, the latest
    /// delete's stamp, and per column the latest update's stamp and value. Each is a "keep the
    /// maximum" register, so the order in which entries arrive does not change them, and the row
    /// is a function of them (see ``RemoteApplier``).
    ///
    /// Each register is kept twice: as this replica has it (its own changes not yet uploaded
    /// included) and as the server's log has it (the *server state*, `base_*`). The two differ
    /// only while the register's latest change is this replica's own and not yet uploaded: such
    /// a *pending* change can still lose to a constraint, and then the register goes back to
    /// the server state (see ``ConflictResolver``).
    enum Register: Hashable {
        case insert, delete, column(String)

        var name: String {
            switch self {
            case .insert: "#insert"
            case .delete: "#delete"
            case .column(let name): name
            }
        }

        init(name: String) {
            switch name {
            case "#insert": self = .insert
            case "#delete": self = .delete
            default: self = .column(name)
            }
        }

        /// The register a change of `operation` raises.
        init(_ operation: Change.Operation, column: String?) {
            switch operation {
            case .insert: self = .insert
            case .delete: self = .delete
            case .update: self = .column(column ?? "")
            }
        }

        /// The operation of the changes that raise it.
        var operation: Change.Operation {
            switch self {
            case .insert: .insert
            case .delete: .delete
            case .column: .update
            }
        }

        /// The column of an update register.
        var column: String? {
            if case .column(let name) = self { name } else { nil }
        }
    }

    struct StoredStamp: Equatable {
        let stamp: Stamp
        /// An update's value (``SyncValueCoding/encode(_:)``), an insert's row
        /// (``SyncValueCoding/encodeRow(_:)``; `nil` in files synced before rows were kept).
        let value: String?
    }

    /// A register as this replica has it and as the server's log has it.
    struct RegisterState {
        let current: StoredStamp
        let server: StoredStamp?

        /// Whether the latest change is `origin`'s own and not yet uploaded.
        func isPending(origin: String) -> Bool {
            current.stamp.origin == origin && current != server
        }
    }

    static func stamp(_ table: String, _ key: String, _ register: Register, _ connection: Connection) throws -> StoredStamp? {
        try state(table, key, register, connection)?.current
    }

    static func state(_ table: String, _ key: String, _ register: Register, _ connection: Connection) throws -> RegisterState? {
        let rows = try connection.statement("SELECT hlc, origin, value, base_hlc, base_origin, base_value FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col = ?")
            .rows([.text(table), .text(key), .text(register.name)])
        guard let row = rows.first, let current = storedStamp(row[0], row[1], row[2]) else { return nil }
        return RegisterState(current: current, server: storedStamp(row[3], row[4], row[5]))
    }

    /// Every register of a row, by name.
    static func states(_ table: String, _ key: String, _ connection: Connection) throws -> [Register: RegisterState] {
        var result: [Register: RegisterState] = [:]
        for row in try connection.statement("SELECT col, hlc, origin, value, base_hlc, base_origin, base_value FROM \(stampsTable) WHERE tbl = ? AND row_key = ?")
            .rows([.text(table), .text(key)]) {
            guard case .text(let name) = row[0], let current = storedStamp(row[1], row[2], row[3]) else { continue }
            result[Register(name: name)] = RegisterState(current: current, server: storedStamp(row[4], row[5], row[6]))
        }
        return result
    }

    static func storedStamp(_ hlc: SQLiteValue, _ origin: SQLiteValue, _ value: SQLiteValue) -> StoredStamp? {
        guard case .integer(let hlc) = hlc, case .text(let origin) = origin else { return nil }
        return StoredStamp(stamp: Stamp(clock: HybridLogicalClock(rawValue: hlc), origin: origin), value: value.textValue)
    }

    /// Raises the register to `stamp` (with `value`) if `stamp` is later than what it holds;
    /// returns whether it did. One statement: the upsert's `WHERE` keeps a later stamp.
    ///
    /// A change from the server's log (`fromServer`) raises the server state too; this
    /// replica's own change, stamped locally, is pending until the cursor passes it (``confirmUploaded(through:origin:_:)``).
    @discardableResult
    static func raise(_ register: Register, _ table: String, _ key: String, to stamp: Stamp, value: String? = nil, fromServer: Bool, _ connection: Connection) throws -> Bool {
        let arguments: [SQLiteValue] = [.text(table), .text(key), .text(register.name), .integer(stamp.clock.rawValue), .text(stamp.origin), value.map(SQLiteValue.text) ?? .null]
        guard fromServer else {
            try connection.statement("""
                INSERT INTO \(stampsTable) (tbl, row_key, col, hlc, origin, value) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value
                WHERE excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin)
                """).run(arguments)
            return connection.changes > 0
        }
        try connection.statement("""
            INSERT INTO \(stampsTable) (tbl, row_key, col, hlc, origin, value, base_hlc, base_origin, base_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?5, ?6)
            ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value,
                base_hlc = excluded.hlc, base_origin = excluded.origin, base_value = excluded.value
            WHERE excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin)
            """).run(arguments)
        if connection.changes > 0 { return true }
        // A later pending change of this replica's own holds the register: the server state
        // still moves.
        try connection.statement("""
            UPDATE \(stampsTable) SET base_hlc = ?4, base_origin = ?5, base_value = ?6
            WHERE tbl = ?1 AND row_key = ?2 AND col = ?3
              AND (base_hlc IS NULL OR ?4 > base_hlc OR (?4 = base_hlc AND ?5 > base_origin))
            """).run(arguments)
        return false
    }

    /// The cursor passed this replica's entries through outbox seq `seq` in the server's log:
    /// their stamps become the server state of their registers, and they leave the outbox.
    static func confirmUploaded(through seq: Int64, origin: String, _ connection: Connection) throws {
        try connection.statement("""
            UPDATE \(stampsTable) SET base_hlc = uploaded.hlc, base_origin = ?2, base_value = uploaded.payload
            FROM (SELECT tbl, row_key, CASE op WHEN 'insert' THEN '#insert' WHEN 'delete' THEN '#delete' ELSE col END AS register,
                         max(hlc) AS hlc, payload
                  FROM \(Outbox.table) WHERE seq <= ?1 GROUP BY 1, 2, 3) AS uploaded
            WHERE \(stampsTable).tbl = uploaded.tbl AND \(stampsTable).row_key = uploaded.row_key AND \(stampsTable).col = uploaded.register
              AND (base_hlc IS NULL OR uploaded.hlc > base_hlc OR (uploaded.hlc = base_hlc AND ?2 > base_origin))
            """).run([.integer(seq), .text(origin)])
        try Outbox.remove(through: seq, connection)
    }

    /// Puts a register back to the server state (or removes it, if the server never had it):
    /// its pending change lost.
    static func restoreServerState(_ register: Register, _ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(stampsTable) WHERE tbl = ? AND row_key = ? AND col = ? AND base_hlc IS NULL")
            .run([.text(table), .text(key), .text(register.name)])
        try connection.statement("UPDATE \(stampsTable) SET hlc = base_hlc, origin = base_origin, value = base_value WHERE tbl = ? AND row_key = ? AND col = ?")
            .run([.text(table), .text(key), .text(register.name)])
    }

    /// A row's registers other than its insert's: what decides how an insert lands.
    struct LaterRegisters {
        /// The latest delete.
        var delete: StoredStamp?
        /// Per column, the latest update and its value.
        var columns: [String: StoredStamp] = [:]
    }
}
#endif
