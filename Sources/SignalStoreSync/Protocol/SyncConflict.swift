#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// A change that did not take effect, kept so that nothing is silently dropped: one that lost
/// to a constraint between replicas, one the server refused, or an entry of the server's log
/// this replica could not read. Its whole row where known, where it came from, the rule it
/// broke and what it collided with.
///
/// Sync lists these in ``SyncClient/conflicts`` and `signalstore sync conflicts`, until they
/// are re-applied (``SyncClient/reapply(_:changing:)``, after a fix) or discarded
/// (``SyncClient/discard(_:)``). Which change loses, and why every replica agrees, is in the
/// <doc:SyncDesign> article.
public struct SyncConflict: Sendable, Equatable, Identifiable, CustomStringConvertible {
    /// Why a change did not take effect.
    public enum Kind: String, Sendable, Equatable {
        /// It broke a UNIQUE, FOREIGN KEY, CHECK or NOT NULL rule with another replica's
        /// change, and the server's log put the other first.
        case constraint
        /// The server refused this replica's change (a scope the role holds no grant for, a
        /// table or column the server does not sync, a value over its size limit).
        case refused
        /// An entry of the server's log this replica cannot read (a malformed one, written
        /// around SignalStore, or by a newer version): set aside, and sync went on.
        case unreadable
    }

    /// The conflict's number in this database file.
    public let id: Int64
    /// Why the change did not take effect.
    public let kind: Kind
    /// The entry's position in the server's log, for an ``Kind/unreadable`` one.
    public let position: Int64?
    /// The table of the row.
    public let table: String
    /// The row's primary key, in key order.
    public let key: [SQLiteValue]
    /// What the losing change did to the row. (For an ``Kind/unreadable`` entry whose
    /// operation is none of the three, `.update`: ``rule`` says what the log holds.)
    public let operation: Change.Operation
    /// The column of an update.
    public let column: String?
    /// The whole row as the losing change made it (for a delete: the row it deleted), or `nil`
    /// where it is not known.
    public let row: [String: SQLiteValue]?
    /// The origin id of the replica that made the change.
    public let origin: String
    /// The PostgreSQL role that uploaded another replica's change, as the server recorded it
    /// (no client chooses it); `nil` for this replica's own changes.
    public let uploadedBy: String?
    /// Whether this replica made the change (it was undone here, and never uploaded).
    public let isLocal: Bool
    /// The rule it broke, as SQLite states it: `UNIQUE constraint failed: customers.email`.
    public let rule: String
    /// What it collided with: the change that stood.
    public let collidedWith: String
    /// When this replica found it.
    public let detectedAt: Date

    /// `#3 insert customers [102] from this replica: UNIQUE constraint failed: customers.email (collided with …)`.
    public var description: String {
        let source = isLocal ? "this replica" : "replica \(origin)" + (uploadedBy.map { " (role \($0))" } ?? "")
        if kind == .unreadable, let position {
            return "#\(id) entry at position \(position) of the server's log from \(source), set aside: \(rule)"
        }
        return "#\(id) \(Self.describeChange(operation, column: column, table: table, key: key)) from \(source): \(rule) (collided with \(collidedWith))"
    }

    /// `insert customers [102]`, `update of email of customers [1]`.
    static func describeChange(_ operation: Change.Operation, column: String?, table: String, key: [SQLiteValue]) -> String {
        let what = operation == .update ? "update of \(column ?? "?") of" : operation.rawValue
        return "\(what) \(table) [\(key.map(\.description).joined(separator: ", "))]"
    }
}
#endif
