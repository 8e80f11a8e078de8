#if SIGNALSTORE_SYNC
import Foundation
import Signals
import SignalStore

/// Where a client's rounds run, and how long one may go without an answer from PostgreSQL.
extension SyncClient {
    /// The thread of the running ``run()``, ``syncOnce()`` or ``compactServerLog()``, for the
    /// tasks it starts (unstructured tasks do not inherit an executor preference).
    @TaskLocal static var thread: ThreadExecutor?

    /// Runs `body` on a thread of its own, not the concurrency runtime's cooperative pool.
    ///
    /// A round blocks that thread while SQLite waits for a lock, and its deadline counts from
    /// PostgreSQL's last answer: on the pool (one thread per core), an app whose other tasks
    /// keep the pool busy delayed each resumption after an answer, and rounds that made
    /// progress timed out (seen in the test suite's first seconds, hundreds of tests starting
    /// at once on 2 cores: a connect went 8 s without resuming).
    func onOwnThread<Value: Sendable>(_ body: () async throws(SyncError) -> Value) async throws(SyncError) -> Value {
        try await Self.onOwnThread(url, body)
    }

    /// Runs `body` on a thread of its own, named after `url`: ``onOwnThread(_:)`` for calls
    /// that are not a client's (the administrator's ``SyncScopes``).
    static func onOwnThread<Value: Sendable>(_ url: PostgresURL, _ body: () async throws(SyncError) -> Value) async throws(SyncError) -> Value {
        let executor = ThreadExecutor(name: "SignalStoreSync \(url.host):\(url.port)/\(url.schema)")
        defer { executor.finish() }
        let outcome = await Self.$thread.withValue(executor) { () async -> Swift.Result<Value, SyncError> in
            await withTaskExecutorPreference(executor) { () async -> Swift.Result<Value, SyncError> in
                do throws(SyncError) { return .success(try await body()) } catch { return .failure(error) }
            }
        }
        return try outcome.get()
    }

    /// How long a round may go without progress (an answer from PostgreSQL, a batch applied)
    /// before the link counts as dead: a link that goes silent (a cable pulled, a proxy that
    /// drops packets) fails no query by itself. A round that moves never times out, however
    /// big the transaction it carries.
    static let answerTimeout = Duration.seconds(8)

    /// The error of a connection that the server closed.
    static func closedByServer(_ url: PostgresURL) -> SyncError {
        SyncError(.unreachable, "PostgreSQL at \(url.host):\(url.port) closed the connection (a restart, or an administrator); sync reconnects")
    }

    /// ``pass(_:_:)``, or ``SyncError/unreachable`` after ``answerTimeout`` without progress
    /// or as soon as the connection closes; the connection is closed then, which fails the
    /// query that waits, and a query the driver leaves suspended is left behind.
    func passWithDeadline(_ log: ServerLog, _ tables: SyncedTables) async throws(SyncError) -> SyncedTables {
        watchdog.touch()
        return try await Self.withDeadline(url, while: "syncing", watchdog: watchdog, onTimeout: { log.abort() }) {
            try await self.pass(log, tables)
        }
    }

    /// Runs `body` with a connection of its own to the server, on a thread of its own as a
    /// round does (an app whose tasks keep the cooperative pool busy must not make the connect
    /// look like a dead link), and closes it: for the administrator's calls and one-off reads.
    static func withLog<Result: Sendable>(_ url: PostgresURL, _ body: @Sendable (ServerLog) async throws(SyncError) -> Result) async throws(SyncError) -> Result {
        try await onOwnThread(url) { () async throws(SyncError) -> Result in
            let log = try await connectWithDeadline(url).log
            do throws(SyncError) {
                let result = try await body(log)
                await log.close()
                return result
            } catch {
                await log.close()
                throw error
            }
        }
    }

    /// Connects to the server's log and reads what it holds from `origin`, or throws
    /// ``SyncError/unreachable`` after ``answerTimeout``: a connection cut during its startup
    /// (a server restarting) can leave the driver waiting for good.
    static func connectWithDeadline(_ url: PostgresURL, origin: String? = nil) async throws(SyncError) -> (log: ServerLog, stored: Int64) {
        try await withDeadline(url, while: "connecting", abandoned: { connected in await connected.log.close() }) { () async throws -> (log: ServerLog, stored: Int64) in
            let log = try await ServerLog.connect(url)
            guard let origin else { return (log, 0) }
            do {
                return (log, try await log.uploadedThrough(origin: origin))
            } catch {
                await log.close()
                throw error
            }
        }
    }

    /// Runs `body`, or throws ``SyncError/unreachable`` (saying what it was `activity`) once ``answerTimeout`` passed
    /// without it finishing, or, with a `watchdog`, without it touching the watchdog or once
    /// the watchdog's connection closed (after calling `onTimeout`, which should make `body`
    /// fail).
    ///
    /// `body` runs in a task of its own that is cancelled, not awaited, on timeout: the driver
    /// can leave an operation on a connection that was cut during its startup suspended for
    /// good, and sync must go on. A value it returns after the caller stopped waiting goes to
    /// `abandoned` (a connection made just after a cancellation is closed there).
    static func withDeadline<Result: Sendable>(
        _ url: PostgresURL, while activity: String, watchdog: Watchdog = Watchdog(), onTimeout: @escaping @Sendable () -> Void = {},
        abandoned: @escaping @Sendable (Result) async -> Void = { _ in },
        _ body: @escaping @Sendable () async throws -> Result
    ) async throws(SyncError) -> Result {
        let outcome = Locked<CheckedContinuation<Result, any Error>?>(nil)
        @Sendable func finish(_ result: Swift.Result<Result, any Error>) -> Bool {
            guard let continuation = outcome.withLock({ continuation in defer { continuation = nil }; return continuation }) else { return false }
            continuation.resume(with: result)
            return true
        }
        let work = Locked<Task<Void, Never>?>(nil)
        let timer = Locked<Task<Void, Never>?>(nil)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    outcome.withLock { $0 = continuation }
                    // A cancellation that came before the continuation was stored found nothing
                    // to finish; the flag it set is seen here.
                    if Task.isCancelled {
                        _ = finish(.failure(CancellationError()))
                        return
                    }
                    work.withLock { $0 = Task(executorPreference: thread) {
                        do {
                            let value = try await body()
                            // Too late (cancelled, or timed out): nobody takes it, so let it go here.
                            if !finish(.success(value)) { await abandoned(value) }
                        } catch {
                            _ = finish(.failure(error))
                        }
                        timer.withLock { $0 }?.cancel()
                    } }
                    timer.withLock { $0 = Task(executorPreference: thread) {
                        guard let verdict = await watchdog.waitForSilence(answerTimeout) else { return }
                        let error = verdict == .closed ? closedByServer(url) : SyncError(
                            .unreachable, "PostgreSQL at \(url.host):\(url.port) did not answer for \(answerTimeout.formattedSeconds) while \(activity); sync reconnects"
                        )
                        if finish(.failure(error)) {
                            onTimeout()
                            work.withLock { $0 }?.cancel()
                        }
                    } }
                }
            } onCancel: {
                if finish(.failure(CancellationError())) { work.withLock { $0 }?.cancel() }
            }
        } catch {
            throw SyncError(error)
        }
    }
}
#endif
