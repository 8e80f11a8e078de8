import CSQLite
import Foundation

/// One SQLite connection, opened with SignalStore's settings.
///
/// Settings on open: `journal_mode=WAL` (unless deferred, see ``enableWAL()``),
/// `synchronous=NORMAL`, `foreign_keys=ON`, a busy timeout (default 5 s); writes run in
/// `BEGIN IMMEDIATE` transactions. A connection that writes keeps temporary storage in memory
/// (`temp_store=MEMORY`): inside a transaction every statement that may abort halfway (any
/// write a trigger journals) keeps a statement journal, which SQLite otherwise starts with a
/// 64 KiB buffer that is freed when the statement ends; on Linux, glibc then handed the heap's
/// top back to the kernel and took it again on every write (a `brk` per write, about 9 of a
/// model set's 31 µs of CPU on a 2-core Linux machine). The cost: a sort too large for the
/// page cache on the writer (an index built by a migration over millions of rows) spills to
/// memory instead of a temporary file. Read-only connections keep SQLite's default.
/// `recursive_triggers` keeps SQLite's default (off), as every other writer has it: the
/// capture triggers do not depend on it. A new database file is
/// created readable and writable by its owner only (0600); SQLite gives its `-wal` and `-shm`
/// files the same permissions.
///
/// Not `Sendable`: a connection is owned by one serial owner (the store, behind its lock).
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>
package final class Connection {
    let handle: OpaquePointer
    /// The file path, or `:memory:`.
    package let path: String
    /// Whether the connection was opened for reading only.
    package let isReadOnly: Bool
    private var cache: [String: Statement] = [:]
    /// The statements used last, looked at before `cache`: a write uses the same few again and
    /// again. `@exclusivity(unchecked)`: the connection's one owner uses it from one thread at a
    /// time and no access overlaps another, so the runtime's check of each access (some 40
    /// instructions, on every write) is left out.
    @exclusivity(unchecked) private var recent = RecentStatements(limit: 4)
    /// The statements ``executeKeepingPrepared(_:)`` ran last. Apart from `recent` and `cache`:
    /// SQL with its values written into it is often run once, and would push the store's own
    /// statements out.
    private var lastExecuted = RecentStatements(limit: Connection.lastExecutedLimit)
    /// How many statements ``executeKeepingPrepared(_:)`` keeps prepared.
    static let lastExecutedLimit = 8
    /// The transaction statements, by ``TransactionStatement`` (see `Connection+Transaction`).
    private var transactionStatements = [Statement?](repeating: nil, count: TransactionStatement.allCases.count)

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private
    /// in-memory database.
    /// - Parameters:
    ///   - path: The file to open.
    ///   - busyTimeout: How long a write waits for another connection's lock before failing
    ///     with ``SQLiteError/busy``.
    ///   - readOnly: Open an existing file for reading only: nothing is created, the journal
    ///     mode is left as it is, and every write fails with ``SQLiteError/readOnly``.
    ///   - deferWAL: Leave the journal mode as it is until ``enableWAL()``: a store adopting a
    ///     file changes nothing in it until its setup commits.
    /// - Throws: ``SQLiteError`` if the file cannot be opened or is not a database.
    package init(path: String, busyTimeout: Duration = .seconds(5), readOnly: Bool = false, deferWAL: Bool = false) throws(SQLiteError) {
        if path != ":memory:", !readOnly { try Self.createOwnerOnlyFile(at: path) }
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: code, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
        self.path = path
        isReadOnly = readOnly
        sqlite3_extended_result_codes(handle, 1)
        do {
            try configure(busyTimeout: busyTimeout, enableWAL: !readOnly && !deferWAL)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        recent.removeAll()
        cache.removeAll()
        lastExecuted.removeAll()
        transactionStatements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Creates an empty file with mode 0600 if none exists, so SQLite never creates it with the
    /// process's default (often world-readable) permissions.
    private static func createOwnerOnlyFile(at path: String) throws(SQLiteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "cannot create \(path): \(reason)")
        }
    }

    private func configure(busyTimeout: Duration, enableWAL: Bool) throws(SQLiteError) {
        let milliseconds = busyTimeout.components.seconds * 1_000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        // Reading the schema first makes "file is not a database" fail here, with a clear error.
        _ = try statement("SELECT count(*) FROM sqlite_master").rows()
        if enableWAL { try self.enableWAL() }
        try execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        if !isReadOnly { try execute("PRAGMA temp_store=MEMORY") }
    }

    /// Switches the database to write-ahead logging (a change to the file's header, kept).
    package func enableWAL() throws(SQLiteError) {
        _ = try statement("PRAGMA journal_mode=WAL").rows()
    }

    /// Runs one or more SQL statements without parameters.
    /// - Throws: ``SQLiteError`` naming the statement that failed.
    package func execute(_ sql: String) throws(SQLiteError) {
        for statement in try SQLScript(sql).statements() {
            try Statement(database: handle, sql: statement.sql).run()
        }
    }

    /// Runs `sql`, SQL without parameters that an app wrote (`store.execute`). One statement
    /// stays prepared among the last ``lastExecutedLimit`` run so: an app often runs the same
    /// again (a status written as a literal), and SQLite's parse of an `UPDATE` that fires
    /// triggers costs more than running it. A script of several statements runs as
    /// ``execute(_:)`` runs it.
    /// - Throws: ``SQLiteError`` naming the statement that failed.
    package func executeKeepingPrepared(_ sql: String) throws(SQLiteError) {
        guard SQLScript.isOneStatement(sql) else { return try execute(sql) }
        if let kept = lastExecuted.statement(for: sql) { return try kept.run() }
        // Trimmed, as a script's statements are: an error names the statement on one line.
        let statement = try Statement(database: handle, sql: sql.trimmingWhitespace())
        lastExecuted.keep(statement, for: sql)
        try statement.run()
    }

    /// A prepared statement for `sql`, reused across calls. The cache holds at most
    /// ``cacheLimit`` statements; past that it starts over, so arbitrary SQL cannot grow it
    /// without bound.
    package func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = recent.statement(for: sql) { return statement }
        let statement = try cachedStatement(sql)
        recent.keep(statement, for: sql)
        return statement
    }

    private func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = cache[sql] { return cached }
        let statement = try Statement(database: handle, sql: sql)
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        cache[sql] = statement
        return statement
    }

    /// The prepared transaction statement `which`.
    func kept(_ which: TransactionStatement) throws(SQLiteError) -> Statement {
        if let prepared = transactionStatements[which.rawValue] { return prepared }
        let prepared = try Statement(database: handle, sql: which.sql)
        transactionStatements[which.rawValue] = prepared
        return prepared
    }

    /// The most statements kept prepared.
    static let cacheLimit = 256

    /// The rowid of the last inserted row.
    package var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Whether the main schema's triggers fire on this connection (`TEMP` triggers always do).
    ///
    /// Off, a write fires none of them: not the capture triggers, nor a user's, nor the delete
    /// rules' (foreign key actions themselves still run). Changing it makes SQLite prepare this
    /// connection's statements again on their next use, which costs a few tens of microseconds
    /// each: switch it around runs of writes, not single ones. Only ``Journal/HandJournaling``
    /// turns it off, and back on before anything else writes.
    package var firesPersistentTriggers: Bool {
        get { csqlite_enable_triggers(handle, -1) == 1 }
        set {
            let now = csqlite_enable_triggers(handle, newValue ? 1 : 0)
            precondition(now == (newValue ? 1 : 0), "SQLite did not turn this connection's triggers \(newValue ? "on" : "off")")
        }
    }

    /// The number of rows changed by the last statement.
    package var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Rows inserted, updated or deleted through this connection since it opened (not through
    /// others).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/total_changes.html>
    package var totalChanges: Int64 {
        sqlite3_total_changes64(handle)
    }

    /// Whether a transaction is open, as SQLite itself reports it (`sqlite3_get_autocommit`):
    /// true inside `BEGIN … COMMIT`, whoever began it.
    package var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Whether this connection holds a write transaction (`sqlite3_txn_state`): what it reads
    /// of the schema may be uncommitted, and undone.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/txn_state.html>
    package var isWriting: Bool {
        sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE
    }

    /// The value of the first column of the first row `sql` returns, or `nil` when it returns
    /// no row.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try statement(sql).scalar(arguments)
    }

    /// Whether the main schema has a table (not a view) called `name`.
    package func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) == .integer(1)
    }
}
