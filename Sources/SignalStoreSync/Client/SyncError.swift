import SignalStore

/// Why sync stopped or could not start: what went wrong and what to do, in one line.
///
/// No message ever contains a password: connection URLs appear as
/// ``PostgresURL/redacted``, and the PostgreSQL driver's own errors are rewritten, never
/// passed through.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PostgreSQL URL is malformed or asks for something unsupported.
    case invalidURL(String)
    /// PostgreSQL cannot be reached now (refused, unreachable, timed out, link cut). Transient:
    /// ``SyncClient/run()`` retries with backoff; ``SyncClient/syncOnce()`` throws it.
    case unreachable(String)
    /// PostgreSQL refused the connection for good: a wrong password, an unknown user or
    /// database, TLS required by one side and refused by the other, a server certificate that
    /// does not check out.
    case refused(String)
    /// The server's log and this database disagree (a table or column missing here, a table
    /// without a primary key, a copied database file). Nothing of the failing batch was
    /// applied.
    case schemaMismatch(String)
    /// Another copy of this database file already synced under the same origin id.
    case duplicateOrigin(String)
    /// The local database failed.
    case store(StoreError)
    /// PostgreSQL reported an error while syncing.
    case server(String)

    /// Whether retrying later may succeed without anybody changing anything.
    public var isTransient: Bool {
        if case .unreachable = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .invalidURL(let message), .unreachable(let message), .refused(let message),
             .schemaMismatch(let message), .duplicateOrigin(let message), .server(let message):
            return message
        case .store(let error):
            return error.description
        }
    }

    init(_ error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let error as StoreError: self = .store(error)
        case let error as SQLiteError: self = .store(.sqlite(error))
        case is CancellationError: self = .unreachable("sync was cancelled")
        default: self = .server("sync failed: \(type(of: error)); run again, and report it if it persists")
        }
    }
}
