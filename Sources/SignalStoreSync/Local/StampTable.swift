#if SIGNALSTORE_SYNC
import SignalStore

/// The stamps table (`_signalstore_sync_stamps`): every synced row's registers (``Register``),
/// each as this replica has it and as the server's log has it. One row per register; every
/// change runs on the store's writer connection inside the write transaction that changes the
/// rows the stamps describe.
enum StampTable {
    static let name = "_signalstore_sync_stamps"

    /// The value of a register's server state. A register whose server state is its current
    /// state (the same stamp, so the same write) keeps the value once, in `value`, with
    /// `base_value` `NULL`: a row inserted here or from the log then stores its payload once,
    /// not twice (confirming an uploaded page rewrote every row twice its size). A stored
    /// `base_value` always counts; writes that move the current state off the server state
    /// copy the value into `base_value` first (``keepServerValue``).
    static let serverValue = "CASE WHEN base_value IS NULL AND base_hlc = hlc AND base_origin = origin THEN value ELSE base_value END"

    /// The assignment that keeps the server state's value in an `UPDATE` of the current state.
    private static let keepServerValue = "base_value = \(serverValue)"

    /// Creates the table on first use, and brings a file that synced with an earlier
    /// SignalStore to today's table: the server state columns, the rowid layout.
    static func create(_ connection: Connection) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS \(name) (\(definition));")
        try addServerStateColumns(connection)
        try leaveWithoutRowIDLayout(connection)
    }

    /// The table's columns and key.
    ///
    /// A rowid table, not `WITHOUT ROWID`: its rows stay in the order they were written, so a
    /// batch's new registers fill a few pages at its end, and only the key's index (short
    /// entries) is written across its width. Ordered by row key, as a `WITHOUT ROWID` table
    /// keeps them, a batch's registers (about 265 bytes each) landed all over the table: at 50
    /// replicas, a batch of about 200 entries rewrote about 300 of the table's 826 pages
    /// (`strace` of a sync process, WAL frames decoded), and the 50 sync processes wrote 3.5 GB
    /// where they now write 1.2 GB (`Benchmarks/sync_scale.py`).
    private static let definition = """
        tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
        origin TEXT NOT NULL, value TEXT, base_hlc INTEGER, base_origin TEXT, base_value TEXT,
        PRIMARY KEY (tbl, row_key, col)
        """

    /// Files that synced with an earlier SignalStore keep their stamps in a `WITHOUT ROWID`
    /// table (see ``definition``): it is copied once into the rowid layout, in the caller's
    /// transaction, so a failure leaves the old table as it was.
    private static func leaveWithoutRowIDLayout(_ connection: Connection) throws {
        guard try TableSchema.read(name, connection)?.isWithoutRowID == true else { return }
        let columns = "tbl, row_key, col, hlc, origin, value, base_hlc, base_origin, base_value"
        try connection.execute("""
            ALTER TABLE \(name) RENAME TO \(name)_without_rowid;
            CREATE TABLE \(name) (\(definition));
            INSERT INTO \(name) (\(columns)) SELECT \(columns) FROM \(name)_without_rowid;
            DROP TABLE \(name)_without_rowid;
            """)
    }

    /// Files that synced with an earlier SignalStore have a stamps table without the server
    /// state columns: everything they hold counts as the server's.
    private static func addServerStateColumns(_ connection: Connection) throws {
        let columns = try TableSchema.read(name, connection)?.columnNames ?? []
        guard !columns.contains("base_hlc") else { return }
        try connection.execute("""
            ALTER TABLE \(name) ADD COLUMN base_hlc INTEGER;
            ALTER TABLE \(name) ADD COLUMN base_origin TEXT;
            ALTER TABLE \(name) ADD COLUMN base_value TEXT;
            UPDATE \(name) SET base_hlc = hlc, base_origin = origin, base_value = value;
            """)
    }

    /// Forgets every register of a row that left this replica (its scope is no longer held
    /// here): if it comes back, its history comes whole, and no stamp of before stands in its way.
    static func forgetRow(_ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(name) WHERE tbl = ? AND row_key = ?").run([.text(table), .text(key)])
    }

    /// Which of `keys` (encoded keys of rows of `table`) have a register here: one read per
    /// ``keysPerRead`` keys.
    static func rowsWithRegisters(_ table: String, among keys: [String], _ connection: Connection) throws -> Set<String> {
        var registered: Set<String> = []
        for start in stride(from: 0, to: keys.count, by: keysPerRead) {
            let chunk = keys[start..<min(start + keysPerRead, keys.count)]
            // A short chunk fills the rest of the smallest statement it fits with NULL, which
            // matches no key: a few statements serve every length.
            let read = registeredKeysReads.first { $0.slots >= chunk.count } ?? registeredKeysReads[registeredKeysReads.count - 1]
            let arguments = [.text(table)] + chunk.map(SQLiteValue.text) + Array(repeating: .null, count: read.slots - chunk.count)
            for row in try connection.statement(read.sql).rows(arguments) {
                if case .text(let key) = row[0] { registered.insert(key) }
            }
        }
        return registered
    }

    /// How many keys ``rowsWithRegisters(_:among:_:)`` looks up in one read.
    static let keysPerRead = 500
    /// The lengths of the key lists it reads with. SQLite builds a table of an `IN` list's
    /// values each time the statement runs, the `NULL`s that fill it included: for a run of
    /// 225 inserts (a batch at 50 replicas), a list of 500 cost 13,260 SQLite instructions per
    /// key, one of 256 8,084 (`Benchmarks/register_lookup_instructions.py`).
    private static let registeredKeysReads: [(slots: Int, sql: String)] = [64, 128, 256, keysPerRead].map { slots in
        (slots, "SELECT DISTINCT row_key FROM \(name) WHERE tbl = ? AND row_key IN (\(Array(repeating: "?", count: slots).joined(separator: ", ")))")
    }

    static func stamp(_ table: String, _ key: String, _ register: Register, _ connection: Connection) throws -> StoredStamp? {
        try state(table, key, register, connection)?.current
    }

    static func state(_ table: String, _ key: String, _ register: Register, _ connection: Connection) throws -> RegisterState? {
        let rows = try connection.statement(stateSQL).rows([.text(table), .text(key), .text(register.name)])
        guard let row = rows.first, let current = storedStamp(row[0], row[1], row[2]) else { return nil }
        return RegisterState(current: current, server: storedStamp(row[3], row[4], row[5]))
    }

    private static let stateSQL = "SELECT hlc, origin, value, base_hlc, base_origin, \(serverValue) FROM \(name) WHERE tbl = ? AND row_key = ? AND col = ?"

    /// Every register of a row, by name.
    static func states(_ table: String, _ key: String, _ connection: Connection) throws -> [Register: RegisterState] {
        var result: [Register: RegisterState] = [:]
        for row in try connection.statement(statesSQL)
            .rows([.text(table), .text(key)]) {
            guard case .text(let name) = row[0], let current = storedStamp(row[1], row[2], row[3]) else { continue }
            result[Register(name: name)] = RegisterState(current: current, server: storedStamp(row[4], row[5], row[6]))
        }
        return result
    }

    private static let statesSQL = "SELECT col, hlc, origin, value, base_hlc, base_origin, \(serverValue) FROM \(name) WHERE tbl = ? AND row_key = ?"

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
            try connection.statement(raiseLocalSQL).run(arguments)
            return connection.changes > 0
        }
        try connection.statement(raiseFromServerSQL).run(arguments)
        if connection.changes > 0 { return true }
        // A later pending change of this replica's own holds the register: the server state
        // still moves.
        try connection.statement(raiseServerStateSQL).run(arguments)
        return false
    }

    // `raise`'s statements, built once: a batch raises a register per entry, and the
    // connection finds a statement by its text. The server state never moves to an earlier
    // stamp: a file synced before ``recordAction(_:_:column:value:_:)`` let a column with an
    // older pending change take the action can hold a server state above the register's own.
    private static let raiseLocalSQL = """
        INSERT INTO \(name) (tbl, row_key, col, hlc, origin, value) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value, \(keepServerValue)
        WHERE excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin)
        """
    private static let raiseFromServerSQL = """
        INSERT INTO \(name) (tbl, row_key, col, hlc, origin, value, base_hlc, base_origin, base_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?5, NULL)
        ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value,
            base_hlc = excluded.hlc, base_origin = excluded.origin, base_value = NULL
        WHERE (excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin))
          AND (base_hlc IS NULL OR excluded.hlc > base_hlc OR (excluded.hlc = base_hlc AND excluded.origin > base_origin))
        """
    private static let raiseServerStateSQL = """
        UPDATE \(name) SET base_hlc = ?4, base_origin = ?5, base_value = CASE WHEN ?4 = hlc AND ?5 = origin THEN NULL ELSE ?6 END
        WHERE tbl = ?1 AND row_key = ?2 AND col = ?3
          AND (base_hlc IS NULL OR ?4 > base_hlc OR (?4 = base_hlc AND ?5 > base_origin))
        """

    /// The cursor passed this replica's entries through outbox seq `seq` in the server's log:
    /// their stamps become the server state of their registers, and they leave the outbox.
    static func confirmUploaded(through seq: Int64, origin: String, _ connection: Connection) throws {
        try connection.statement("""
            UPDATE \(name) SET base_hlc = uploaded.hlc, base_origin = ?2,
                base_value = CASE WHEN uploaded.hlc = \(name).hlc AND ?2 = \(name).origin THEN NULL ELSE uploaded.payload END
            FROM (SELECT tbl, row_key, CASE op WHEN 'insert' THEN '#insert' WHEN 'delete' THEN '#delete' ELSE col END AS register,
                         max(hlc) AS hlc, payload
                  FROM \(Outbox.table) WHERE seq <= ?1 GROUP BY 1, 2, 3) AS uploaded
            WHERE \(name).tbl = uploaded.tbl AND \(name).row_key = uploaded.row_key AND \(name).col = uploaded.register
              AND (base_hlc IS NULL OR uploaded.hlc > base_hlc OR (uploaded.hlc = base_hlc AND ?2 > base_origin))
            """).run([.integer(seq), .text(origin)])
        try Outbox.remove(through: seq, connection)
    }

    /// Sets a register as this replica has it to an earlier pending change of its own: the
    /// later ones lost.
    static func lowerPending(_ register: Register, _ table: String, _ key: String, to stamp: Stamp, value: String?, _ connection: Connection) throws {
        try connection.statement("UPDATE \(name) SET hlc = ?, origin = ?, value = ?, \(keepServerValue) WHERE tbl = ? AND row_key = ? AND col = ?")
            .run([.integer(stamp.clock.rawValue), .text(stamp.origin), value.map(SQLiteValue.text) ?? .null, .text(table), .text(key), .text(register.name)])
    }

    /// Puts a register back to the server state (or removes it, if the server never had it):
    /// its pending change lost.
    static func restoreServerState(_ register: Register, _ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(name) WHERE tbl = ? AND row_key = ? AND col = ? AND base_hlc IS NULL")
            .run([.text(table), .text(key), .text(register.name)])
        try connection.statement("UPDATE \(name) SET hlc = base_hlc, origin = base_origin, value = \(serverValue), base_value = NULL WHERE tbl = ? AND row_key = ? AND col = ?")
            .run([.text(table), .text(key), .text(register.name)])
    }
}
#endif
