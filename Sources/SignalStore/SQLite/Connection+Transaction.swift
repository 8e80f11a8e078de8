/// The one transaction implementation of every SQLite connection: the store's writer, the
/// migrator, journal capture, the readers and sync's local side all open theirs here.
///
/// Whether a transaction is the outermost is read from SQLite's own state
/// (`sqlite3_get_autocommit`), never from a counter of ours, so a transaction opened by any
/// code on the connection (a `store.transaction` body that creates a table, a migration that
/// installs capture) nests as a savepoint instead of failing with "cannot start a transaction
/// within a transaction".
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>,
/// <https://www.sqlite.org/lang_savepoint.html>
extension Connection {
    /// How the outermost level of a transaction begins.
    package enum TransactionKind: Sendable {
        /// `BEGIN IMMEDIATE`: takes the write lock at once, so the transaction cannot fail later
        /// with "database is locked" when it first writes. Every write transaction.
        case immediate
        /// `BEGIN DEFERRED`: a read transaction; its snapshot starts at the first read.
        case deferred
    }

    /// Runs `body` in a transaction: `BEGIN` … `COMMIT` when none is open, a savepoint when one
    /// is. If `body` throws, its level is rolled back (to the savepoint, or whole) and the error
    /// is rethrown as `body` threw it. A caller that must know whether its level is the whole
    /// transaction reads ``isInTransaction`` before calling.
    /// - Parameters:
    ///   - kind: How the outermost level begins; ignored when nested.
    ///   - body: The work; it runs once.
    @discardableResult
    package func transaction<Result>(_ kind: TransactionKind = .immediate, _ body: () throws -> Result) throws -> Result {
        let isOutermost = !isInTransaction
        try kept(isOutermost ? kind.begin : .savepoint).run()
        do {
            let result = try body()
            try kept(isOutermost ? .commit : .release).run()
            return result
        } catch {
            rollBack(isOutermost: isOutermost)
            throw error
        }
    }

    /// Undoes a failed level. SQLite may already have rolled the whole transaction back (some
    /// errors, such as a full disk, do), so the outermost level rolls back only what is open,
    /// and a nested one only while its savepoint can still exist.
    private func rollBack(isOutermost: Bool) {
        guard isInTransaction else { return }
        if isOutermost {
            try? kept(.rollback).run()
        } else {
            try? kept(.rollbackToSavepoint).run()
            try? kept(.release).run()
        }
    }
}

extension Connection.TransactionKind {
    var begin: Connection.TransactionStatement {
        switch self {
        case .immediate: .beginImmediate
        case .deferred: .beginDeferred
        }
    }
}

extension Connection {
    /// The statements that open and close transactions, prepared once per connection and kept
    /// apart from the statement cache (every write runs two of them).
    ///
    /// Nested levels are savepoints that share one name: SQLite keeps savepoints on a stack, and
    /// `RELEASE` and `ROLLBACK TO` act on the most recent one with the name.
    enum TransactionStatement: Int, CaseIterable {
        case beginImmediate, beginDeferred, commit, rollback, savepoint, release, rollbackToSavepoint

        var sql: String {
            switch self {
            case .beginImmediate: "BEGIN IMMEDIATE"
            case .beginDeferred: "BEGIN DEFERRED"
            case .commit: "COMMIT"
            case .rollback: "ROLLBACK"
            case .savepoint: "SAVEPOINT signalstore"
            case .release: "RELEASE signalstore"
            case .rollbackToSavepoint: "ROLLBACK TO signalstore"
            }
        }
    }
}
