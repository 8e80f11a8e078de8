import CSQLite

/// An error reported by SQLite: its result codes, its message, and the SQL that failed.
///
/// Bound values are never included, so an error can be logged without leaking data.
/// Match a kind of error with a code: a primary code matches every extended code of its kind,
/// an extended code only itself.
/// ```swift
/// do { try store.execute("INSERT INTO orders …") }
/// catch SQLiteError.constraintUnique { print("another row has that key") }
/// catch SQLiteError.constraint { print("another constraint rejected the row") }
/// ```
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
    /// (`SQLITE_CONSTRAINT_UNIQUE`), for matching errors by kind.
    public struct Code: Sendable, Hashable {
        /// The numeric result code.
        public let rawValue: Int32

        /// Creates a code from its numeric value.
        public init(_ rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// Whether this is a primary code, which stands for all its extended codes.
        public var isPrimary: Bool { rawValue & ~0xFF == 0 }

        /// The primary code of this code's kind (itself for a primary code).
        public var primary: Code { Code(rawValue & 0xFF) }

        /// Whether an error with the extended code `code` is of this kind: the same primary
        /// code for a primary pattern, the same code for an extended one. Lets a `switch` over
        /// ``SQLiteError/extended`` list extended cases before their primary one.
        public static func ~= (pattern: Code, code: Code) -> Bool {
            pattern.isPrimary ? pattern == code.primary : pattern == code
        }
    }

    /// The primary result code (`extendedCode & 0xFF`).
    public var code: Code { Code(extendedCode & 0xFF) }
    /// The extended result code as a ``Code``: `SQLiteError.constraintUnique` rather than the
    /// primary `SQLiteError.constraint` that ``code`` holds.
    public var extended: Code { Code(extendedCode) }
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


    /// A `CHECK` constraint failed (`SQLITE_CONSTRAINT_CHECK`).
    public static let constraintCheck = extended(SQLITE_CONSTRAINT, 1)
    /// A foreign key failed: a missing parent, or a parent with children (`SQLITE_CONSTRAINT_FOREIGNKEY`).
    public static let constraintForeignKey = extended(SQLITE_CONSTRAINT, 3)
    /// A `NOT NULL` column got NULL (`SQLITE_CONSTRAINT_NOTNULL`).
    public static let constraintNotNull = extended(SQLITE_CONSTRAINT, 5)
    /// Another row has that primary key (`SQLITE_CONSTRAINT_PRIMARYKEY`).
    public static let constraintPrimaryKey = extended(SQLITE_CONSTRAINT, 6)
    /// Another row has those values of a `UNIQUE` key or index (`SQLITE_CONSTRAINT_UNIQUE`).
    public static let constraintUnique = extended(SQLITE_CONSTRAINT, 8)
    /// A trigger's `RAISE` rejected the change (`SQLITE_CONSTRAINT_TRIGGER`).
    public static let constraintTrigger = extended(SQLITE_CONSTRAINT, 7)
    /// A value of the wrong type for a `STRICT` table's column (`SQLITE_CONSTRAINT_DATATYPE`).
    public static let constraintDataType = extended(SQLITE_CONSTRAINT, 12)
    /// A read transaction cannot become a write one: another connection wrote since it began
    /// (`SQLITE_BUSY_SNAPSHOT`, WAL mode); retrying the whole transaction works.
    public static let busySnapshot = extended(SQLITE_BUSY, 2)
    /// The database is being recovered by another connection (`SQLITE_BUSY_RECOVERY`).
    public static let busyRecovery = extended(SQLITE_BUSY, 1)

    /// An extended code as sqlite3.h defines it (its macros, built with shifts, are not
    /// imported into Swift).
    private static func extended(_ primary: Int32, _ number: Int32) -> Code {
        Code(primary | (number << 8))
    }

    /// Whether this error is of the kind `code`: the same primary code for a primary `code`,
    /// the same extended code for an extended one.
    public func matches(_ code: Code) -> Bool {
        code ~= extended
    }
}
