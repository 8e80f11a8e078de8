import Signals

/// Starts `body` in a task on a thread of its own, where a test would write `Task { … }`.
///
/// An unstructured task starts on the cooperative pool even from a test on its own thread
/// (`.ownThread`): tasks do not inherit an executor preference. In a full run's first seconds,
/// hundreds of tests hold the pool's two threads, and a `Task { try await sync.run() }` did not
/// start for over 20 s, failing a test that waited for the sync to go idle.
///
/// ```swift
/// let running = taskOnOwnThread { try await client.run() }
/// defer { running.cancel() }
/// ```
public func taskOnOwnThread<Success: Sendable>(
    _ name: String = "test task", _ body: @escaping @Sendable () async throws -> Success
) -> Task<Success, any Error> {
    let executor = ThreadExecutor(name: name)
    return Task(executorPreference: executor) {
        defer { executor.finish() }
        return try await body()
    }
}
