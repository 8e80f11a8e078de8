#if SIGNALSTORE_SYNC
/// A change from another replica, as read from the server's log.
struct RemoteEntry: Sendable, Equatable {
    /// Its position in the server's log.
    var position: Int64
    var origin: String
    var entry: SyncEntry

    var stamp: Stamp { Stamp(clock: entry.clock, origin: origin) }
}
#endif
