import CSQLite

/// An error reported by SQLite: its result codes, its message, and the SQL that failed.
///
/// Bound values are never included, so an error can be logged without leaking data.
/// Match a kind of error with a code:
/// ```swift
/// do { try store.execute("INSERT INTO orders …") }
/// catch SQLiteError.constraint { print("a constraint rejected the row") }
/// ```
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A primary SQLite result code, for matching errors by kind.
    public struct Code: Sendable, Hashable {
        /// The numeric primary result code.
        public let rawValue: Int32

        /// Creates a code from its numeric value.
        public init(_ rawValue: Int32) {
            self.rawValue = rawValue
        }
    }

    /// The primary result code (`extendedCode & 0xFF`).
    public var code: Code { Code(extendedCode & 0xFF) }
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_CHECK`.
    public let extendedCode: Int32
    /// SQLite's message.
    public let message: String
    /// The SQL that failed, if the error came from a statement.
    public let sql: String?

    /// Creates an error.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The error SQLite reports for the last failed call on `database`.
    init(lastErrorOf database: OpaquePointer, sql: String?) {
        self.init(extendedCode: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)), sql: sql)
    }

    /// `SQLite error 19 (constraint): CHECK constraint failed: purchase_num >= 0 — in: UPDATE …`
    public var description: String {
        var text = "SQLite error \(extendedCode) (\(String(cString: sqlite3_errstr(extendedCode)))): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// Generic error (`SQLITE_ERROR`): bad SQL, missing table or column.
    public static let error = Code(SQLITE_ERROR)
    /// The database is busy: another connection holds the write lock past the timeout.
    public static let busy = Code(SQLITE_BUSY)
    /// A table is locked by this connection.
    public static let locked = Code(SQLITE_LOCKED)
    /// The database is read-only (file permissions or a read-only open).
    public static let readOnly = Code(SQLITE_READONLY)
    /// The disk (or `max_page_count`) is full.
    public static let full = Code(SQLITE_FULL)
    /// The file could not be opened.
    public static let cantOpen = Code(SQLITE_CANTOPEN)
    /// A constraint (`CHECK`, `NOT NULL`, `UNIQUE`, foreign key) rejected the change.
    public static let constraint = Code(SQLITE_CONSTRAINT)
    /// A value did not match the column's type (`STRICT` tables, `rowid`).
    public static let mismatch = Code(SQLITE_MISMATCH)
    /// The file is damaged.
    public static let corrupt = Code(SQLITE_CORRUPT)
    /// The file is not a SQLite database.
    public static let notADatabase = Code(SQLITE_NOTADB)
    /// A disk read or write failed.
    public static let ioError = Code(SQLITE_IOERR)
    /// SQLite was used incorrectly (a bug in the caller).
    public static let misuse = Code(SQLITE_MISUSE)

    /// The extended code of a row whose primary key another row already has
    /// (`SQLITE_CONSTRAINT_PRIMARYKEY`).
    package static let primaryKeyConstraint: Int32 = SQLITE_CONSTRAINT | (6 << 8)
}

/// Whether `error` is a ``SQLiteError`` with the primary code `code`, or a
/// ``StoreError/sqlite(_:)`` holding one; lets `catch SQLiteError.constraint` match
/// constraint failures from SQLite and from store calls alike.
public func ~= (code: SQLiteError.Code, error: any Error) -> Bool {
    switch error {
    case let error as SQLiteError: return error.code == code
    case StoreError.sqlite(let error): return error.code == code
    default: return false
    }
}
