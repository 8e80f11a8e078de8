#if SIGNALSTORE_SYNC
import Signals

/// When work last made progress, for a deadline that counts from there: a round that keeps
/// moving never times out, one that goes silent does.
final class Watchdog: Sendable {
    private let lastProgress = Locked(ContinuousClock.now)

    /// Progress was made now.
    func touch() {
        lastProgress.withLock { $0 = .now }
    }

    /// Waits until `timeout` has passed without progress and returns `true`; returns `false`
    /// when the waiting task is cancelled first.
    func waitForSilence(_ timeout: Duration) async -> Bool {
        while true {
            let deadline = lastProgress.withLock { $0 } + timeout
            if ContinuousClock.now >= deadline { return true }
            guard (try? await Task.sleep(until: deadline)) != nil else { return false }
        }
    }
}
#endif
