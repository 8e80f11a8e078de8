#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// What a replica keeps about sync in its own database file, in tables the journal does not
/// capture (`_signalstore_sync*`): its origin id, how far it has read the server's log and its
/// own journal, and its clock, in a table of its own; the outbox of stamped entries not yet
/// uploaded (``Outbox``), the registers of every synced row (``StampTable``), and the changes
/// that lost to a constraint (``ConflictLog``) in theirs.
///
/// Every change runs on the store's writer connection inside a write transaction, so the state
/// always moves together with the rows it describes; ``read(_:)`` also runs on a reader.
enum ReplicaState {
    static let stateTable = "_signalstore_sync_state"
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
            """)
        try StampTable.create(connection)
        try Outbox.create(connection)
        try ConflictLog.create(connection)
        try ConcurrentEdits.create(connection)
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
        for table in [stateTable, Outbox.table, StampTable.name, ConflictLog.table, ConcurrentEdits.table, HeldScopes.table] {
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
}
#endif
