import CSQLite
import Foundation

extension SQLiteValue {
    /// Makes a value from what SQLite reports of it: its storage class, then the accessor for
    /// that class. Shared by a statement's columns (``Statement/column(_:)``) and a SQL
    /// function's arguments (``init(functionArgument:)``), which SQLite reads through two
    /// families of functions.
    @inline(__always)
    static func decoding(
        type: Int32,
        integer: () -> Int64,
        real: () -> Double,
        text: () -> (bytes: UnsafePointer<UInt8>?, count: Int),
        blob: () -> (bytes: UnsafeRawPointer?, count: Int)
    ) -> SQLiteValue {
        switch type {
        case SQLITE_INTEGER:
            return .integer(integer())
        case SQLITE_FLOAT:
            return .real(real())
        case SQLITE_TEXT:
            // By its length, not up to its first NUL: text may hold NUL characters. (SQLite's
            // text accessor must be called before its length accessor, as the closures do.)
            let (bytes, count) = text()
            guard let bytes, count > 0 else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let (bytes, count) = blob()
            guard count > 0, let bytes else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// The value of an argument of an application-defined SQL function.
    init(functionArgument value: OpaquePointer) {
        self = .decoding(
            type: sqlite3_value_type(value),
            integer: { sqlite3_value_int64(value) },
            real: { sqlite3_value_double(value) },
            text: { (sqlite3_value_text(value), Int(sqlite3_value_bytes(value))) },
            blob: { (sqlite3_value_blob(value), Int(sqlite3_value_bytes(value))) }
        )
    }
}
