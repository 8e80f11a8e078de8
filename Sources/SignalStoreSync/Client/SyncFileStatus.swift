#if SIGNALSTORE_SYNC
import SignalStore

/// What a database file says of its sync, read from the file alone (no client, no server): how
/// far the replica has read the server's log, what waits to be uploaded, and the conflicts kept.
/// The inspector shows it beside a `signalstore sync` that runs against the same file.
package struct SyncFileStatus: Sendable, Equatable {
    /// This file's origin id.
    package let origin: String
    /// The highest position of the server's log applied here.
    package let serverCursor: Int64
    /// The journal seq through which local entries are stamped for upload.
    package let stampedThrough: Int64
    /// Local changes the server does not hold yet.
    package let pendingUpload: Int64
    /// The changes that lost to a constraint between replicas, oldest first.
    package let conflicts: [SyncConflict]
}

extension SyncClient {
    /// The sync state kept in `store`'s file; `nil` for a file that never synced.
    package static func fileStatus(in store: Store) throws(SyncError) -> SyncFileStatus? {
        do {
            return try store.readConnection { connection -> SyncFileStatus? in
                guard try connection.tableExists(ReplicaState.stateTable), let position = try ReplicaState.read(connection) else { return nil }
                return SyncFileStatus(
                    origin: position.origin, serverCursor: position.serverCursor, stampedThrough: position.stampedThrough,
                    pendingUpload: try Outbox.count(after: position.uploadedThrough, connection),
                    conflicts: try ConflictLog.all(connection)
                )
            }
        } catch {
            throw SyncError(error)
        }
    }
}
#endif
