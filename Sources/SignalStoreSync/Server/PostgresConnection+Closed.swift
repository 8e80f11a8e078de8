#if SIGNALSTORE_SYNC
import Logging
import PostgresNIO

/// Queries and transactions that fail at once on a connection the server has closed, instead of
/// waiting for good.
///
/// postgres-nio (1.33) leaves a query sent on a closed connection suspended forever: the
/// request never reaches the handler that would fail it. The server closes a session in the
/// middle of sync's work when an administrator ends it (`pg_terminate_backend`), at the
/// database's `idle_in_transaction_session_timeout` while the client applies a batch, or when it
/// restarts; `withTransaction` then sends `ROLLBACK` on the closed connection, and the next
/// query after the client's own work is sent on it too. Every query of sync goes through
/// ``queryUnlessClosed(_:logger:file:line:)``, and every transaction through
/// ``transactionUnlessClosed(logger:_:)``, which sends no `ROLLBACK` once the session is gone
/// (the server rolled it back when it ended the session).
extension PostgresConnection {
    /// `query(_:logger:)`, or ``SessionEnded`` at once when the connection is already closed.
    @discardableResult
    func queryUnlessClosed(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> PostgresRowSequence {
        guard !isClosed else { throw SessionEnded() }
        return try await self.query(query, logger: logger, file: file, line: line)
    }

    /// Runs `body` in one transaction: `BEGIN`, then `COMMIT`, or `ROLLBACK` when `body`
    /// throws and the session still lives. Throws what failed (the `BEGIN`, `body` or the
    /// `COMMIT`) as it was thrown.
    func transactionUnlessClosed<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await queryUnlessClosed("BEGIN", logger: logger)
        let result: Result
        do {
            result = try await body(self)
        } catch {
            if !isClosed && !Self.endsTheSession(error) {
                _ = try? await queryUnlessClosed("ROLLBACK", logger: logger)
            }
            throw error
        }
        try await queryUnlessClosed("COMMIT", logger: logger)
        return result
    }

    /// Whether `error` means the server ended the session or the link is gone: a `FATAL` or
    /// `PANIC` from the server, or a closed connection. The channel may not have closed yet
    /// when the error arrives; a `ROLLBACK` sent then could be the query that waits for good.
    private static func endsTheSession(_ error: any Error) -> Bool {
        if error is SessionEnded { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError:
            return true
        case .server:
            let severity = error.serverInfo?[.severity] ?? error.serverInfo?[.localizedSeverity] ?? ""
            return severity == "FATAL" || severity == "PANIC"
        default:
            return false
        }
    }
}

/// A query was not sent: the server had already closed the connection.
struct SessionEnded: Error {}
#endif
