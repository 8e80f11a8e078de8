/// The store's writer connection and its bookkeeping, owned by one recursive lock.
///
/// The lock is recursive because a `store.transaction` body runs the caller's code, which may
/// write through models, call `find`, or open a nested transaction on the same thread. Other
/// threads' writes wait until the transaction ends, so they never see or join it; their reads
/// go to the reader pool and do not wait.
final class StoreDatabase: @unchecked Sendable {
    // @unchecked: `state` is only accessed inside `withLock`.
    final class State {
        var connection: Connection?
        /// `PRAGMA data_version` at the last poll: it changes when another connection commits.
        var dataVersion: Int64 = 0
        /// The writer's ``Connection/totalChanges`` when the poller last checked: another count
        /// at the next check means the store wrote meanwhile.
        var changesAtLastPoll: Int64 = 0
        /// `PRAGMA schema_version` when capture was last brought up to date.
        var schemaVersion: Int64 = 0
        /// The failure of the last poll, reported once; `nil` after a poll that worked.
        var pollFailure: StoreError?
        /// The open `store.transaction`, if any.
        var transaction: ModelTransaction?
        /// The entries this connection writes, handed over as they are written; `nil` where
        /// that could not be set up.
        var ownEntries: OwnEntryCapture?

        init(connection: Connection) {
            self.connection = connection
        }

        /// Makes the next write check the capture triggers again: a rolled-back transaction may
        /// have changed the schema (and `schemaVersion`) and then undone it.
        func forgetSchemaVersion() {
            schemaVersion = -1
        }
    }

    private let lock = RecursiveLock()
    private let state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(state) }
    }

    /// Runs `body` on the writer if its lock is free or the calling thread's own (outside a
    /// transaction, or inside the calling thread's); returns `nil` at once, without waiting,
    /// when another thread holds it or the store is closed, else what `body` returns.
    func withLockIfFree<Result>(_ body: (State, Connection) throws -> Result?) rethrows -> Result? {
        guard lock.tryLock() else { return nil }
        defer { lock.unlock() }
        guard let connection = state.connection else { return nil }
        return try body(state, connection)
    }

    /// Runs `body` if the calling thread is inside an open `store.transaction` (it then holds
    /// the lock, and its reads must see the transaction's writes); returns `nil` at once
    /// otherwise, without waiting for the lock (another thread holding it: not our transaction).
    func withLockIfInTransaction<Result>(_ body: (State, Connection) throws -> Result) rethrows -> Result? {
        try withLockIfFree { state, connection in state.transaction == nil ? nil : .some(try body(state, connection)) }
    }
}
