#if SIGNALSTORE_SYNC
import Signals

/// Wakes the sync loop: a local commit, or a `NOTIFY` from the server. Rings while nobody
/// waits are remembered as one, so a ring is never lost and many rings cost one pass.
final class Doorbell: Sendable {
    private struct State {
        var isRung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Whether a wait is in progress (for tests that ring one).
    var isWaitedOn: Bool {
        state.withLock { $0.waiter != nil }
    }

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
    /// when the task is cancelled. Only a wait that a ring ends uses the ring up: one that
    /// arrives after a timeout is left for the next wait.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextRing() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Waits for a ring, or until the task is cancelled; consumes the ring only in the first case.
    private func nextRing() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock, so a cancellation either is seen here or finds the waiter.
                let resumeNow = state.withLock { state -> Bool in
                    if state.isRung {
                        state.isRung = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
#endif
