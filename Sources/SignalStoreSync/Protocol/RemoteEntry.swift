#if SIGNALSTORE_SYNC
/// A change from another replica, as read from the server's log.
struct RemoteEntry: Sendable, Equatable {
    /// Its position in the server's log.
    var position: Int64
    var origin: String
    var entry: SyncEntry
    /// The scope the server gave it (the row's value of the scope column), `nil` for a shared
    /// table's entry or a deployment without scopes.
    var scope: String? = nil
    /// For an entry that moved its row to another scope, the scope it left.
    var previousScope: String? = nil

    var stamp: Stamp { Stamp(clock: entry.clock, origin: origin) }
}
#endif
