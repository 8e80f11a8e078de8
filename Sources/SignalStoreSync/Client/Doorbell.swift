import Signals

/// Wakes the sync loop: a local commit, or a `NOTIFY` from the server. Rings while nobody
/// waits are remembered as one, so a ring is never lost and many rings cost one pass.
final class Doorbell: Sendable {
    private struct State {
        var isRung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.isRung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next ring (at once if it rang since the last wait), after `timeout`, or
    /// when the task is cancelled.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextRing() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            ring()   // ends the ring waiter if the timeout won; remembered for the next wait
            await group.waitForAll()
            state.withLock { $0.isRung = false }
        }
    }

    private func nextRing() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isRung || Task.isCancelled {
                        state.isRung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
    }
}
