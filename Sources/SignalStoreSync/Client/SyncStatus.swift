#if SIGNALSTORE_SYNC
/// What a ``SyncClient`` is doing, as ``SyncClient/status`` reports it.
public enum SyncStatus: Sendable, Equatable, CustomStringConvertible {
    /// Not started, or stopped without an error.
    case stopped
    /// Connecting to PostgreSQL.
    case connecting
    /// Uploading local changes and applying other replicas' changes.
    case syncing
    /// Everything known is uploaded and applied; waiting for the next change.
    case idle
    /// PostgreSQL cannot be reached; local writes go on and wait in the outbox. The next attempt
    /// is after `retryIn`.
    case offline(SyncError, retryIn: Duration)
    /// Sync waits for something local, and tries again after `retryIn`; the error says what:
    /// - another writer holds the database's write lock (a long transaction, an import by a
    ///   `sqlite3` shell): ``SyncError/isLockBusy``;
    /// - other replicas wrote a schema this database has not migrated to yet
    ///   (``SyncError/schemaMismatch``): local changes are still uploaded, and other replicas'
    ///   are applied once this database migrates.
    ///
    /// Not a failure: nothing is lost, and sync goes on by itself.
    case waiting(SyncError, retryIn: Duration)
    /// Stopped by an error that retrying does not fix (see ``SyncError/isTransient``).
    case failed(SyncError)

    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .connecting: "connecting"
        case .syncing: "syncing"
        case .idle: "idle"
        case .offline(let error, let retryIn): "offline, retrying in \(retryIn.formattedSeconds): \(error)"
        case .waiting(let error, let retryIn): "waiting, retrying in \(retryIn.formattedSeconds): \(error)"
        case .failed(let error): "failed: \(error)"
        }
    }
}

/// How much a ``SyncClient`` has moved since it started, as ``SyncClient/progress`` reports it.
public struct SyncProgress: Sendable, Equatable {
    /// Local changes stored on the server.
    public var uploaded: Int = 0
    /// Other replicas' changes read from the server.
    public var downloaded: Int = 0
    /// Of those, the ones that changed a local row (the others lost to a later write).
    public var applied: Int = 0
    /// Changes that did not take effect, this replica's and others' (see ``SyncClient/conflicts``):
    /// lost to a constraint, refused by the server, or entries of the log this replica cannot read.
    public var conflicts: Int = 0
    /// Local changes not on the server yet.
    public var pendingUpload: Int64 = 0
    /// Server log entries this replica has not read yet, as of the last look.
    public var behind: Int64 = 0
    /// The scopes this replica holds, sorted, with a server set up for scopes
    /// (`signalstore sync setup --scope-column`); `nil` without scopes, or for a role that sees
    /// every scope (the sync tables' owner).
    public var scopes: [String]?
    /// Server log entries applied for scopes gained by a grant while running.
    public var scopeEntriesFetched: Int = 0
    /// Rows removed for scopes lost by a revoke while running.
    public var scopeRowsRemoved: Int = 0

    public init() {}
}

extension Duration {
    var formattedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds < 10 ? "\((seconds * 10).rounded() / 10) s" : "\(Int(seconds.rounded())) s"
    }
}
#endif
