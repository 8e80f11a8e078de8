import CSQLite
import Foundation

/// A prepared SQL statement: bind values, step through rows, reset.
///
/// Not thread-safe; it belongs to its ``Connection``, which is owned by one lock.
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
package final class Statement {
    let handle: OpaquePointer
    /// The statement's SQL, for error messages.
    package let sql: String
    private let database: OpaquePointer

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(lastErrorOf: database, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters.
    package var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    /// - Throws: ``SQLiteError`` if the count does not match or a value cannot be bound.
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        reset()
        try expectParameters(values.count)
        // An index loop, not `enumerated()`: a debug build (`swift run`) runs the generic
        // iterator of the standard library per value, and sync binds a row per applied entry.
        var offset = 0
        while offset < values.count {
            try check(bind(values[offset], at: Int32(offset + 1)))
            offset += 1
        }
    }

    /// - Throws: ``SQLiteError`` unless the statement has `count` parameters.
    private func expectParameters(_ count: Int) throws(SQLiteError) {
        guard count == parameterCount else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "the statement has \(parameterCount) parameter(s) but \(count) value(s) were given",
                sql: sql
            )
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let value):
            return sqlite3_bind_int64(handle, index, value)
        case .real(let value):
            return sqlite3_bind_double(handle, index, value)
        case .text(var value):
            // With its length, not up to its first NUL: text may hold NUL characters.
            return value.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
                let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                return sqlite3_bind_text64(handle, index, text, sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let value):
            return value.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count), csqlite_transient())
            }
        }
    }

    /// Advances to the next row. Returns `true` if a row is available, `false` when done.
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(lastErrorOf: database, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    package func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { reset() }
        while try step() {}
    }

    /// ``run(_:)`` with two values, without an array to allocate: a model's set binds a
    /// column's value and a rowid.
    package func run(_ first: SQLiteValue, _ second: SQLiteValue) throws(SQLiteError) {
        reset()
        try expectParameters(2)
        try check(bind(first, at: 1))
        try check(bind(second, at: 2))
        defer { reset() }
        while try step() {}
    }

    /// Runs the statement and returns the first column of its first row, or `nil` if it has
    /// no rows.
    package func scalar(_ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try bind(values)
        defer { reset() }
        return try step() ? column(0) : nil
    }

    /// Runs the statement and returns every row.
    package func rows(_ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try bind(values)
        defer { reset() }
        var rows: [[SQLiteValue]] = []
        while try step() {
            rows.append((0..<columnCount).map(column))
        }
        return rows
    }

    /// Runs the query with `values` bound and makes a value of each row with `make`, which reads
    /// the current row's columns with ``column(_:)``; rows it makes `nil` of are skipped. No
    /// array is built per row, as ``rows(_:)`` does.
    package func map<Element>(_ values: [SQLiteValue], _ make: (Statement) -> Element?) throws(SQLiteError) -> [Element] {
        try bind(values)
        defer { reset() }
        var elements: [Element] = []
        while try step() {
            if let element = make(self) { elements.append(element) }
        }
        return elements
    }

    /// The number of columns of a row.
    package var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The value of column `index` of the current row.
    package func column(_ index: Int) -> SQLiteValue {
        let index = Int32(index)
        return .decoding(
            type: sqlite3_column_type(handle, index),
            integer: { sqlite3_column_int64(handle, index) },
            real: { sqlite3_column_double(handle, index) },
            text: { (sqlite3_column_text(handle, index), Int(sqlite3_column_bytes(handle, index))) },
            blob: { (sqlite3_column_blob(handle, index), Int(sqlite3_column_bytes(handle, index))) }
        )
    }

    /// Resets the statement so it can run again (bindings are replaced by the next ``bind(_:)``).
    package func reset() {
        sqlite3_reset(handle)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError(lastErrorOf: database, sql: sql)
        }
    }
}
