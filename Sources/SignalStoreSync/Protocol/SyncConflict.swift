#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// A change that did not take effect, kept so that nothing is silently dropped: one that lost
/// to a concurrent edit of the same column on another replica, one that lost to a constraint
/// between replicas, one the server refused, or an entry of the server's log this replica could
/// not read. Where it came from, the rule it broke and what it collided with; for a concurrent
/// edit, the ``base``, ``winner`` and ``loser`` values.
///
/// Sync lists these in ``SyncClient/conflicts`` and `signalstore sync conflicts`. A concurrent
/// edit stays listed, on every replica, until one of them resolves it
/// (``SyncClient/resolve(_:with:)``); the others until they are re-applied
/// (``SyncClient/reapply(_:changing:)``, after a fix) or discarded (``SyncClient/discard(_:)``).
/// Which change loses, and why every replica agrees, is in the <doc:SyncDesign> article.
public struct SyncConflict: Sendable, Equatable, Identifiable, CustomStringConvertible {
    /// Why a change did not take effect.
    public enum Kind: String, Sendable, Equatable {
        /// A column of a row changed on two replicas, each change made without having seen
        /// the other's. The later change stands (``winner``); the other (``loser``) is listed
        /// on every replica that holds the row, under the same ``SyncConflict/id``.
        case concurrentEdit
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

    /// The conflict's number: for a ``Kind/concurrentEdit``, the position in the server's log
    /// of the change that found it, the same on every replica (two inserts of a row that set
    /// several columns differently: the first column's; each further column's is derived from
    /// it, from 9,000,000,000,000,000,000 up); for the other kinds, its number in this database
    /// file.
    public let id: Int64
    /// Why the change did not take effect.
    public let kind: Kind
    /// The entry's position in the server's log, for an ``Kind/unreadable`` one and a
    /// ``Kind/concurrentEdit``.
    public let position: Int64?
    /// The table of the row.
    public let table: String
    /// The row's primary key, in key order.
    public let key: [SQLiteValue]
    /// What the losing change did to the row. (For an ``Kind/unreadable`` entry whose
    /// operation is none of the three, `.update`: ``rule`` says what the log holds.)
    public let operation: Change.Operation
    /// The column of an update, and of a ``Kind/concurrentEdit``.
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
    /// For a ``Kind/concurrentEdit``: the column's value before either change, as the writer of
    /// the change that found it had it; `nil` for two inserts (the row was new) and for the
    /// other kinds.
    public private(set) var base: SQLiteValue? = nil
    /// For a ``Kind/concurrentEdit``: the value that stands, the later change's; `nil` when the
    /// change that stands deleted the row (``Edit/deletesRow``).
    public private(set) var winner: SQLiteValue? = nil
    /// For a ``Kind/concurrentEdit``: the value that was overwritten.
    public private(set) var loser: SQLiteValue? = nil
    /// For a ``Kind/concurrentEdit``: the change that stands.
    public private(set) var winningEdit: Edit? = nil
    /// For a ``Kind/concurrentEdit``: the change that was overwritten (its origin and role are
    /// also ``origin`` and ``uploadedBy``).
    public private(set) var losingEdit: Edit? = nil

    /// One side of a concurrent edit: who made the change, and when.
    public struct Edit: Sendable, Equatable {
        /// The change's position in the server's log.
        public let position: Int64
        /// The origin id of the replica that made it.
        public let origin: String
        /// The PostgreSQL role that uploaded it, as the server recorded it.
        public let uploadedBy: String?
        /// When it was made, by its replica's clock (its stamp's time).
        public let stampedAt: Date
        /// Whether the change deleted the row. A delete stands against a concurrent update,
        /// whatever the stamps: only an insert brings the row back.
        public let deletesRow: Bool
    }

    /// How ``SyncClient/resolve(_:with:)`` settles a concurrent edit.
    public enum Resolution: Sendable, Equatable {
        /// The value that stands stays; the edit leaves every replica's inbox.
        case keepWinner
        /// The overwritten value is written again, as a new change.
        case restoreLoser
        /// Another value is written, as a new change: a merge of the two, say.
        case value(SQLiteValue)
    }

    /// `#3 insert customers [102] from this replica: UNIQUE constraint failed: customers.email (collided with …)`;
    /// `#41 update of email of customers [1] from replica … lost to a concurrent edit: base …, winner …, loser …`.
    public var description: String {
        let source = isLocal ? "this replica" : "replica \(origin)" + (uploadedBy.map { " (role \($0))" } ?? "")
        if kind == .concurrentEdit {
            let values = [("base", base), ("winner", winner), ("loser", loser)].map { name, value in
                if name == "winner" && winningEdit?.deletesRow == true { return "winner (the row deleted)" }
                if name == "base" && operation == .insert { return "base (the row was new)" }
                return "\(name) \(value.map(\.description) ?? "unknown")"
            }
            return "#\(id) \(Self.describeChange(operation, column: column, table: table, key: key)) from \(source) lost to a concurrent edit: \(values.joined(separator: ", "))"
        }
        if kind == .unreadable, let position {
            return "#\(id) entry at position \(position) of the server's log from \(source), set aside: \(rule)"
        }
        return "#\(id) \(Self.describeChange(operation, column: column, table: table, key: key)) from \(source): \(rule) (collided with \(collidedWith))"
    }

    /// `insert customers [102]`, `update of email of customers [1]`, and a concurrent insert's
    /// column: `insert of name into devices ['x']`.
    static func describeChange(_ operation: Change.Operation, column: String?, table: String, key: [SQLiteValue]) -> String {
        let what = switch (operation, column) {
        case (.update, _): "update of \(column ?? "?") of"
        case (.insert, let column?): "insert of \(column) into"
        default: operation.rawValue
        }
        return "\(what) \(table) [\(key.map(\.description).joined(separator: ", "))]"
    }
}
#endif
