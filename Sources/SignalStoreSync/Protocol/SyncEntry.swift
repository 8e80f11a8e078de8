#if SIGNALSTORE_SYNC
import SignalStore

/// One change as it travels between replicas: what the outbox holds and the server's log
/// stores. Rows are named by primary key (``SyncValueCoding/encodeKey(_:)``), never by rowid.
struct SyncEntry: Sendable, Equatable {
    /// The origin's own number for the entry (its outbox seq): `(origin, originSeq)` names an
    /// entry everywhere, and makes uploads idempotent.
    var originSeq: Int64
    var clock: HybridLogicalClock
    var table: String
    var key: String
    var operation: Change.Operation
    /// The column of an update.
    var column: String?
    /// An insert's whole row (``SyncValueCoding/encodeRow(_:)``), an update's new value
    /// (``SyncValueCoding/encode(_:)``); `nil` for a delete.
    var payload: String?
    /// For an update or a delete: what its writer had seen when it made the change, which is how
    /// the server tells a concurrent edit (``SeenState``).
    var seen: SeenState? = nil
    /// The log position of the concurrent edit this change resolves
    /// (``SyncClient/resolve(_:with:)``), or `nil`.
    var resolves: Int64? = nil
}

/// What the writer of a change had seen when it made it: the server log's position through
/// which it had applied the log (its cursor), and for an update the value it replaced, the
/// *base* of a concurrent edit.
///
/// Another replica's change of the same column (for a delete, of any column of the row; for an
/// update, also a delete of its row; for an insert, an insert of the same row) stored in the
/// log after that position, and before this change, is one the writer never saw: the server
/// lists the two as a concurrent edit
/// (``ConcurrentEditsSQL``). A replica stamps its writes before it applies anything newer
/// from the log, so its cursor when stamping is its cursor when writing.
struct SeenState: Sendable, Equatable {
    var position: Int64
    /// The value an update replaced (``SyncValueCoding/encode(_:)``); `nil` for a delete or an
    /// insert.
    var base: String?
}
#endif
