// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
import SignalStoreSync

/// What every `signalstore sync` command does alike: find the server's URL, and run the work
/// until it ends or the user stops it.
enum SyncRun {
    /// The server: `--postgres`, else `$SIGNALSTORE_POSTGRES_URL`.
    static func url(_ option: String?, _ context: CommandContext) throws -> PostgresURL {
        guard let text = option ?? context.environment["SIGNALSTORE_POSTGRES_URL"], !text.isEmpty else {
            throw CLIError("no PostgreSQL server given: pass --postgres postgres://user:password@host/database or set SIGNALSTORE_POSTGRES_URL")
        }
        do { return try PostgresURL(text, environment: context.environment) } catch { throw CLIError(error.description) }
    }

    /// Runs `work` in a task until it ends or the user stops the command (Ctrl-C), and returns
    /// its value, or `nil` when it was stopped first. A stopped run is cancelled: it ends at its
    /// next suspension; a query on a link that went silent may take longer, and the process
    /// exits anyway after 5 s (the outbox keeps what is not uploaded).
    /// - Throws: the run's ``SyncError`` as a ``CLIError``.
    static func untilStopped<Value: Sendable>(
        _ context: CommandContext, _ work: @escaping @Sendable () async throws(SyncError) -> Value
    ) throws -> Value? {
        let outcome = Outcome<Value>()
        let task = Task {
            do throws(SyncError) {
                outcome.finish(.success(try await work()))
            } catch {
                outcome.finish(.failure(error))
            }
            context.stop.fire()
        }
        context.stop.wait()
        task.cancel()
        switch outcome.wait(timeout: .seconds(5)) {
        case .success(let value): return value
        case .failure(let error): throw CLIError(error.description)
        case nil: return nil
        }
    }
}

/// How a sync run ended, handed from its task to the command's thread.
private final class Outcome<Value: Sendable>: Sendable {
    private let done = StopRequest()
    private let stored = Locked<Result<Value, SyncError>?>(nil)

    func finish(_ result: Result<Value, SyncError>) {
        stored.withLock { $0 = result }
        done.fire()
    }

    /// The result, or `nil` if the run has not ended within `timeout`.
    func wait(timeout: Duration) -> Result<Value, SyncError>? {
        done.wait(timeout: timeout)
        return stored.withLock { $0 }
    }
}
#endif
