/// An error from a ``Store``: what went wrong and what to do about it.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite reported an error (constraint, busy, read-only, disk full, not a database…).
    case sqlite(SQLiteError)
    /// The migrations could not be applied; nothing of the failing migration remains.
    case migration(MigrationError)
    /// Resuming the change feed after `since` is impossible: the entries up to
    /// `prunedThrough` were pruned. Nothing was skipped silently; rebuild state from the tables
    /// and resume from `prunedThrough` or later.
    case changeFeedGap(since: Int64, prunedThrough: Int64)
    /// The store was closed.
    case closed
    /// A model does not match its table; the message names property, table and column.
    case schemaMismatch(String)
    /// An object was used in a way its state does not allow (not inserted, already inserted).
    case notManaged(String)
    /// The object's row was deleted (by this or another process).
    case rowDeleted(String)

    /// A message that says what went wrong and how to fix it.
    public var description: String {
        switch self {
        case .sqlite(let error):
            return error.description
        case .migration(let error):
            return "migration failed: \(error.description)"
        case .changeFeedGap(let since, let prunedThrough):
            return "cannot resume the change feed after seq \(since): entries up to seq \(prunedThrough) were pruned; reload the current state from the tables and resume from seq \(prunedThrough) or later"
        case .closed:
            return "the store is closed; open a new Store to keep working"
        case .schemaMismatch(let message), .notManaged(let message), .rowDeleted(let message):
            return message
        }
    }

    /// Wraps any error thrown inside the store.
    static func wrap(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError: return error
        case let error as SQLiteError: return .sqlite(error)
        case let error as MigrationError: return .migration(error)
        default: return .sqlite(SQLiteError(extendedCode: 1, message: "\(error)"))
        }
    }
}
