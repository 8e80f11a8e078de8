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
}
#endif
