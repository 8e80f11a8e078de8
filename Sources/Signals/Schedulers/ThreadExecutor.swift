import Foundation

/// A task executor with a thread of its own that runs its jobs in order until ``finish()``;
/// jobs that arrive after that go to the global concurrent executor.
///
/// For async work that must not wait for the concurrency runtime's cooperative pool (one thread
/// per core), or must not hold one of its threads while it blocks: a sync client's rounds, which
/// block on SQLite's locks and whose deadlines count from the server's last answer, and tests
/// that wait for child processes.
///
/// ```swift
/// let executor = ThreadExecutor(name: "sync")
/// defer { executor.finish() }
/// await withTaskExecutorPreference(executor) { await work() }
/// ```
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the job queue and the finished flag are behind `jobs`'s lock (a
    // LockedCondition); there is no other state.
    private let jobs = LockedCondition<(queue: [UnownedJob], isFinished: Bool)>(([], false))

    /// Starts the thread.
    /// - Parameter name: The thread's name, shown in debuggers and crash reports.
    package init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let accepted = jobs.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.queue.append(unowned)
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(unowned)) }
    }

    /// Ends the thread once the jobs already queued ran.
    package func finish() {
        jobs.withLock { $0.isFinished = true }
    }

    private func runJobs() {
        while let job = jobs.wait(until: { !$0.queue.isEmpty || $0.isFinished }, then: { state, _ in
            state.queue.isEmpty ? nil : state.queue.removeFirst()
        }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
