import CSQLite
import Foundation

/// One SQLite connection, opened with SignalStore's settings.
///
/// Settings on open: `journal_mode=WAL` (unless deferred, see ``enableWAL()``),
/// `synchronous=NORMAL`, `foreign_keys=ON`, a busy timeout (default 5 s); writes run in
/// `BEGIN IMMEDIATE` transactions. `recursive_triggers` keeps SQLite's default (off), as every
/// other writer has it: the capture triggers do not depend on it. A new database file is
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
    private var savepointDepth = 0
    private var keptBegin: Statement?
    private var keptCommit: Statement?

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
        cache.removeAll()
        keptBegin = nil
        keptCommit = nil
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

    /// A prepared statement for `sql`, reused across calls. The cache holds at most
    /// ``cacheLimit`` statements; past that it starts over, so arbitrary SQL cannot grow it
    /// without bound.
    package func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = cache[sql] { return cached }
        let statement = try Statement(database: handle, sql: sql)
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        cache[sql] = statement
        return statement
    }

    /// The most statements kept prepared.
    static let cacheLimit = 256

    /// The rowid of the last inserted row.
    package var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the last statement.
    package var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Whether a transaction is open.
    package var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` … `COMMIT` at the outermost level, a
    /// savepoint when nested. Rolls back (to the savepoint) if `body` throws.
    @discardableResult
    package func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        let isOutermost = savepointDepth == 0
        // The outermost level, every write's, builds no SQL text: its statements are kept.
        let name = isOutermost ? "" : "signalstore_\(savepointDepth)"
        try (isOutermost ? beginImmediate() : statement("SAVEPOINT \(name)")).run()
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try (isOutermost ? commit() : statement("RELEASE \(name)")).run()
            return result
        } catch {
            if isOutermost {
                if isInTransaction { try? execute("ROLLBACK") }
            } else {
                try? execute("ROLLBACK TO \(name); RELEASE \(name)")
            }
            throw error
        }
    }

    /// `BEGIN IMMEDIATE`, prepared once.
    private func beginImmediate() throws(SQLiteError) -> Statement {
        if let kept = keptBegin { return kept }
        let prepared = try Statement(database: handle, sql: "BEGIN IMMEDIATE")
        keptBegin = prepared
        return prepared
    }

    /// `COMMIT`, prepared once.
    private func commit() throws(SQLiteError) -> Statement {
        if let kept = keptCommit { return kept }
        let prepared = try Statement(database: handle, sql: "COMMIT")
        keptCommit = prepared
        return prepared
    }
}
