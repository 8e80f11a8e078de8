#if SIGNALSTORE_SYNC
import SignalStore

/// Why sync stopped or could not start: what went wrong and what to do, in one line, with what
/// is known of where as typed fields.
///
/// Match a kind of error with its code, as with `SQLiteError`:
/// ```swift
/// import SignalStoreSync
///
/// func syncWhenOnline(_ client: SyncClient) async {
///     do {
///         try await client.syncOnce()
///     } catch SyncError.unreachable {
///         print("offline; the changes wait in the outbox")
///     } catch {
///         print("sync failed: \(error)")
///     }
/// }
/// ```
/// No message ever contains a password: connection URLs appear as
/// ``PostgresURL/redacted``, and the PostgreSQL driver's own errors are rewritten, never
/// passed through.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A kind of sync error, for matching.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let name: String

        public var description: String { name }
    }

    /// What kind of error this is.
    public let code: Code
    /// What went wrong and what to do, in one line.
    public let message: String
    /// PostgreSQL's SQLSTATE, when the server reported the error (`28P01`: wrong password).
    public let sqlState: String?
    /// The server as `host:port`, when the error concerns it.
    public let server: String?
    /// The table concerned, where known.
    public let table: String?
    /// The column concerned, where known.
    public let column: String?
    /// The local store's error, for ``store``.
    public let storeError: StoreError?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, sqlState: String? = nil, server: String? = nil, table: String? = nil, column: String? = nil
    ) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.server = server
        self.table = table
        self.column = column
        storeError = nil
    }

    /// An error of the local store.
    public init(store error: StoreError) {
        code = .store
        let busy = SQLiteError.busy ~= error || SQLiteError.locked ~= error
        message = busy ? "another writer holds the database's write lock (\(error.description)); sync waits for it" : error.description
        sqlState = nil
        server = nil
        table = nil
        column = nil
        storeError = error
    }

    /// This error with the fields it does not know yet filled in.
    func with(sqlState: String? = nil, server: String? = nil, table: String? = nil, column: String? = nil) -> SyncError {
        guard storeError == nil else { return self }
        return SyncError(
            code, message, sqlState: self.sqlState ?? sqlState, server: self.server ?? server,
            table: self.table ?? table, column: self.column ?? column
        )
    }

    /// Whether retrying later may succeed without anybody changing anything: the server could
    /// not be reached, or another writer held the local database's lock.
    public var isTransient: Bool {
        code == .unreachable || isLockBusy
    }

    /// Whether another writer held the local database's write lock past the store's busy
    /// timeout.
    public var isLockBusy: Bool {
        guard let storeError else { return false }
        return SQLiteError.busy ~= storeError || SQLiteError.locked ~= storeError
    }

    public var description: String {
        message
    }

    /// See ``Code/invalidURL``.
    public static let invalidURL = Code.invalidURL
    /// See ``Code/unreachable``.
    public static let unreachable = Code.unreachable
    /// See ``Code/refused``.
    public static let refused = Code.refused
    /// See ``Code/schemaMismatch``.
    public static let schemaMismatch = Code.schemaMismatch
    /// See ``Code/duplicateOrigin``.
    public static let duplicateOrigin = Code.duplicateOrigin
    /// See ``Code/store``.
    public static let store = Code.store
    /// See ``Code/server``.
    public static let server = Code.server
    /// See ``Code/cancelled``.
    public static let cancelled = Code.cancelled
    /// See ``Code/invalidArgument``.
    public static let invalidArgument = Code.invalidArgument

    /// Any error thrown while syncing, as a `SyncError`.
    init(_ error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let error as StoreError: self.init(store: error)
        case let error as SQLiteError: self.init(store: .sqlite(error))
        case is CancellationError: self.init(.cancelled, "sync was cancelled")
        default: self.init(.server, "sync failed: \(type(of: error)); run again, and report it if it persists")
        }
    }
}

/// Whether `error` is a ``SyncError`` of kind `code`: lets `catch SyncError.unreachable` read
/// as a case would.
public func ~= (code: SyncError.Code, error: any Error) -> Bool {
    (error as? SyncError)?.code == code
}

extension SyncError.Code {
    /// The PostgreSQL URL is malformed or asks for something unsupported.
    public static let invalidURL = Self(name: "invalidURL")
    /// PostgreSQL cannot be reached now (refused, unreachable, timed out, link cut), or it
    /// ended the round without anything being wrong with it (shutting down, a deadlock, a
    /// statement cancelled by an administrator). Transient: ``SyncClient/run()`` retries with
    /// backoff; ``SyncClient/syncOnce()`` throws it.
    public static let unreachable = Self(name: "unreachable")
    /// PostgreSQL refused the connection for good: a wrong password, an unknown user or
    /// database, TLS required by one side and refused by the other, a server certificate that
    /// does not check out.
    public static let refused = Self(name: "refused")
    /// The server's log and this database disagree (a table or column missing here, a table
    /// without a primary key, a copied database file). Nothing of the failing batch was
    /// applied.
    public static let schemaMismatch = Self(name: "schemaMismatch")
    /// Another copy of this database file already synced under the same origin id.
    public static let duplicateOrigin = Self(name: "duplicateOrigin")
    /// The local database failed (``SyncError/storeError``).
    public static let store = Self(name: "store")
    /// PostgreSQL reported an error while syncing (``SyncError/sqlState``) that trying again
    /// would meet again, such as a statement cancelled at the user's `statement_timeout`.
    public static let server = Self(name: "server")
    /// The task that synced was cancelled. Never reported as ``Code/unreachable``: nothing is wrong
    /// with the server.
    public static let cancelled = Self(name: "cancelled")
    /// A request about conflicts names one that does not exist, a column the table does not
    /// have, or a fix that still breaks a constraint (nothing was written).
    public static let invalidArgument = Self(name: "invalidArgument")
}
#endif
