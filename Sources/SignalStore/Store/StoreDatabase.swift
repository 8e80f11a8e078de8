/// The store's connection and bookkeeping, owned by one recursive lock.
///
/// The lock is recursive because a `store.transaction` body runs the caller's code, which may
/// write through models, call `find`, or open a nested transaction on the same thread. Other
/// threads wait until the transaction ends, so they never see or join it.
final class StoreDatabase: @unchecked Sendable {
    // @unchecked: `state` is only accessed inside `withLock`.
    final class State {
        var connection: Connection?
        /// The last journal entry read (and queued for the feed and the models).
        var lastSeenSeq: Int64 = 0
        /// Whether entries may exist after `lastSeenSeq` that were not read because nobody was
        /// listening; the next listener skips them.
        var isBehind = false
        /// `PRAGMA data_version` at the last poll: it changes when another connection commits.
        var dataVersion: Int64 = 0
        /// `PRAGMA schema_version` when capture was last brought up to date.
        var schemaVersion: Int64 = 0
        /// The open `store.transaction`, if any.
        var transaction: ModelTransaction?
        /// The live model objects.
        let registry = ModelRegistry()

        init(connection: Connection) {
            self.connection = connection
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
}
