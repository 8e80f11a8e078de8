import Foundation

extension TestStore {
    /// Runs `sql` in the real `sqlite3` shell on the test's database file: a writer that knows
    /// nothing of SignalStore, with SQLite's default settings.
    /// - Returns: What the shell printed.
    /// - Throws: ``TestStoreError`` when the shell is not installed or the SQL fails (with the
    ///   shell's message).
    @discardableResult
    public func sqlite3(_ sql: String) throws -> String {
        guard let shell = Self.sqlite3Shell else {
            throw TestStoreError("the sqlite3 shell is not installed; install it (Debian: apt-get install sqlite3, macOS: it ships with the system)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-bail", "-cmd", ".timeout 5000", path, sql]
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw TestStoreError("cannot start \(shell): \(error.localizedDescription)") }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: complaint, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw TestStoreError("sqlite3 failed (exit \(process.terminationStatus)): \(message)")
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// Opens a plain SQLite connection to the test's database file with SQLite's defaults
    /// (`foreign_keys` and `recursive_triggers` off), as Python's `sqlite3` or a C program has.
    public func foreignConnection() throws -> ForeignConnection {
        try ForeignConnection(path: path)
    }

    private static let sqlite3Shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3", "/opt/homebrew/opt/sqlite/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A plain SQLite connection to a ``TestStore``'s file: another writer, with SQLite's default
/// settings. Each statement commits on its own unless the SQL opens a transaction.
public final class ForeignConnection {
    private let connection: Connection

    init(path: String) throws {
        connection = try Connection(path: path)
        try connection.execute("PRAGMA foreign_keys=OFF; PRAGMA recursive_triggers=OFF")
    }

    /// Runs SQL: one statement with `?` parameters bound to `arguments`, or, without arguments,
    /// several statements.
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) {
        if arguments.isEmpty {
            try connection.execute(sql)
        } else {
            try connection.statement(sql).run(arguments)
        }
    }

    /// The rows one query returns.
    public func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try connection.statement(sql).rows(arguments)
    }
}
