/// An error from a ``Store``: what went wrong and what to do about it.
///
/// Every throwing store call throws `StoreError` (typed throws), except
/// ``Store/transaction(_:)``, which rethrows what its body throws. A failure reported by SQLite
/// keeps its result codes in ``sqlite(_:)``, and one pattern matches it whether it comes
/// straight from SQLite or through a store call:
///
/// ```swift
/// func rename(_ store: Store) {
///     do {
///         try store.execute("UPDATE orders SET status = NULL WHERE id = 1")
///     } catch SQLiteError.constraint {
///         print("a constraint rejected the change; nothing was written")
///     } catch {
///         print(error)   // says what went wrong and what to do
///     }
/// }
/// ```
///
/// Writes that cannot throw (a property set on a managed object outside a transaction) and
/// failures of the background work (reading other connections' commits, re-running query
/// signals) are reported on ``Store/errors``; the background work retries at its next turn.
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
    /// No durable consumer has this name (``Store/acknowledge(through:consumer:)``,
    /// ``Store/removeConsumer(_:)``).
    case unknownConsumer(String)
    /// A pruning would delete entries a durable consumer has not acknowledged; nothing was
    /// deleted.
    case consumerBehind(consumer: String, acknowledgedSeq: Int64)
    /// An argument that cannot be used (a seq past the last entry, an empty name, a `Codable`
    /// value its JSON encoder refuses); the message says why and what to give instead.
    case invalidArgument(String)
    /// A revert would overwrite changes made after the range it reverts: these later entries
    /// changed a column or row the range changed. Nothing was written; revert them too, or
    /// pass `overwritingLaterChanges: true` to ``Store/revert(_:overwritingLaterChanges:)``.
    case revertConflict(reverting: ClosedRange<Int64>, laterChanges: [Change])

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
        case .schemaMismatch(let message), .notManaged(let message), .rowDeleted(let message), .invalidArgument(let message):
            return message
        case .unknownConsumer(let name):
            return "no consumer of the change feed is named '\(name)'; it is registered by store.changes(consumer:)"
        case .revertConflict(let range, let later):
            let named = later.prefix(3).map { "#\($0.seq) (\($0.table)[\($0.rowID)] \($0.operation.rawValue)\($0.column.map { " \($0)" } ?? ""))" }
            let more = later.count > 3 ? " and \(later.count - 3) more" : ""
            return "cannot revert seq \(range.lowerBound)...\(range.upperBound): later \(later.count == 1 ? "entry" : "entries") \(named.joined(separator: ", "))\(more) changed the same rows again; nothing was written; revert seq \(range.lowerBound)...\(later.last?.seq ?? range.upperBound) instead, or overwrite them explicitly (overwritingLaterChanges: true)"
        case .consumerBehind(let consumer, let seq):
            return "consumer '\(consumer)' has acknowledged entries only through seq \(seq); nothing was pruned; prune through seq \(seq) or less, or remove the consumer"
        }
    }

    /// The store's error for a failure inside one of its calls. Only SQLite, migration and store
    /// errors arise there (the store runs no caller code in them), so every failure keeps its
    /// real kind and code.
    init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = error
        case let error as SQLiteError: self = .sqlite(error)
        case let error as MigrationError: self = .migration(error)
        default: preconditionFailure("SignalStore bug: an error of type \(type(of: error)) escaped a store call: \(error)")
        }
    }
}

/// Whether `error` is a ``SQLiteError`` of the kind `code` (see ``SQLiteError/matches(_:)``),
/// or a ``StoreError/sqlite(_:)`` holding one (here, beside ``StoreError``: the SQLite layer
/// knows nothing of the store); lets `catch SQLiteError.constraint` match
/// constraint failures from SQLite and from store calls alike.
public func ~= (code: SQLiteError.Code, error: any Error) -> Bool {
    switch error {
    case let error as SQLiteError: return error.matches(code)
    case StoreError.sqlite(let error): return error.matches(code)
    default: return false
    }
}
