import Foundation
import SignalStore

/// Turns errors from the store into one-line ``CLIError``s that say what went wrong and what to
/// do.
enum CLIFailure {
    /// Runs `body`, converting any error it throws.
    static func run<Result>(_ body: () throws -> Result) throws(CLIError) -> Result {
        do {
            return try body()
        } catch {
            throw convert(error)
        }
    }

    /// The ``CLIError`` for `error`.
    static func convert(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError: return error
        case let error as StoreError: return CLIError(message(for: error))
        case let error as SQLiteError: return CLIError(message(for: error))
        case let error as MigrationError: return CLIError(message(for: error))
        default: return CLIError("\(error)")
        }
    }

    private static func message(for error: StoreError) -> String {
        switch error {
        case .sqlite(let error): return message(for: error)
        case .migration(let error): return message(for: error)
        case .revertConflict: return error.description.replacingOccurrences(of: "(overwritingLaterChanges: true)", with: "with --overwrite-later-changes")
        default: return error.description
        }
    }

    private static func message(for error: MigrationError) -> String {
        let hint = error.kind == .missingDirectory ? " (--migrations DIR; default ./Migrations)" : ""
        return "migration failed: \(oneLine(error.description))\(hint)"
    }

    private static func message(for error: SQLiteError) -> String {
        let detail = oneLine(error.message)
        switch error.code {
        case SQLiteError.busy, SQLiteError.locked:
            return "the database is locked by another writer past the timeout; try again when it is done, or wait longer with --timeout SECONDS (nothing was changed)"
        case SQLiteError.readOnly:
            return "the database cannot be written (\(detail)); check the permissions of the file and its folder (nothing was changed)"
        case SQLiteError.constraint:
            return "a constraint rejected the change: \(detail); see `signalstore schema TABLE` for the column rules (nothing was changed)"
        case SQLiteError.full:
            return "the database or disk is full (\(detail)); free some space and try again (nothing was changed)"
        case SQLiteError.notADatabase:
            return "the file is not a SQLite database (\(detail)); check --db"
        case SQLiteError.corrupt:
            return "the database file is damaged (\(detail)); restore it from a backup"
        case SQLiteError.cantOpen:
            return "cannot open the database (\(detail)); check that the file and its folder exist and are accessible"
        case SQLiteError.ioError:
            return "an I/O error occurred (\(detail)); check the disk and the file (nothing was changed)"
        default:
            return "SQLite reported: \(detail)"
        }
    }

    /// SQLite's message on one line.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

extension Store {
    /// Runs `body` in one write transaction; a ``CLIError`` thrown by `body` rolls it back and
    /// comes out unchanged, any other error is converted.
    func writeForCLI<Result>(_ body: (Connection) throws -> Result) throws(CLIError) -> Result {
        do {
            return try writeTransaction(body)
        } catch {
            throw CLIFailure.convert(error)
        }
    }

    /// Runs `body` with a connection for reading (one snapshot); errors as for
    /// ``writeForCLI(_:)``.
    func readForCLI<Result>(_ body: (Connection) throws -> Result) throws(CLIError) -> Result {
        do {
            return try readConnection(body)
        } catch {
            throw CLIFailure.convert(error)
        }
    }
}
