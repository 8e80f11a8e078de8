#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// A change that lost to a constraint between replicas, kept so that nothing is silently
/// dropped: its whole row, where it came from, the rule it broke and what it collided with.
///
/// Sync lists these in ``SyncClient/conflicts`` and `signalstore sync conflicts`, until they
/// are re-applied (``SyncClient/reapply(_:changing:)``, after a fix) or discarded
/// (``SyncClient/discard(_:)``). Which change loses, and why every replica agrees, is in the
/// <doc:SyncDesign> article.
public struct SyncConflict: Sendable, Equatable, Identifiable, CustomStringConvertible {
    /// The conflict's number in this database file.
    public let id: Int64
    /// The table of the row.
    public let table: String
    /// The row's primary key, in key order.
    public let key: [SQLiteValue]
    /// What the losing change did to the row.
    public let operation: Change.Operation
    /// The column of an update.
    public let column: String?
    /// The whole row as the losing change made it (for a delete: the row it deleted), or `nil`
    /// where it is not known.
    public let row: [String: SQLiteValue]?
    /// The origin id of the replica that made the change.
    public let origin: String
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
        let source = isLocal ? "this replica" : "replica \(origin)"
        return "#\(id) \(Self.describeChange(operation, column: column, table: table, key: key)) from \(source): \(rule) (collided with \(collidedWith))"
    }

    /// `insert customers [102]`, `update of email of customers [1]`.
    static func describeChange(_ operation: Change.Operation, column: String?, table: String, key: [SQLiteValue]) -> String {
        let what = operation == .update ? "update of \(column ?? "?") of" : operation.rawValue
        return "\(what) \(table) [\(key.map(\.description).joined(separator: ", "))]"
    }
}
#endif
