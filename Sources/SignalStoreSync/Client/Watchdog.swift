#if SIGNALSTORE_SYNC
import Signals

/// Judges whether the link to PostgreSQL still lives, for a round's deadline: a round that
/// keeps moving never times out, one that goes silent does, and one whose connection closed
/// ends at once.
///
/// A query on a connection that the server closes mid-round (a restart) can stay suspended in
/// the driver: seen in 3 of 6 restarts under writes, each costing the 8 s deadline. The
/// connection's close ends the round's wait instead.
final class Watchdog: Sendable {
    /// How a wait for a dead link ended.
    enum Verdict: Equatable {
        /// No progress for the whole timeout.
        case silent
        /// The watched connection closed.
        case closed
    }

    private struct State {
        var lastProgress = ContinuousClock.now
        /// Which connection is watched: a late close of an earlier one ends nothing.
        var generation = 0
        var isClosed = false
    }

    private let state = Locked(State())
    private let closing = Doorbell()

    /// Progress was made now.
    func touch() {
        state.withLock { $0.lastProgress = .now }
    }

    /// Starts watching a new connection, and returns what to pass to ``closed(generation:)``
    /// when it closes.
    func watchNewConnection() -> Int {
        state.withLock { state in
            state.generation += 1
            state.isClosed = false
            return state.generation
        }
    }

    /// The connection of `generation` closed: a wait for it ends now, and so does every later
    /// one until the next ``watchNewConnection()``.
    func closed(generation: Int) {
        let isWatched = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.isClosed = true
            return true
        }
        if isWatched { closing.ring() }
    }

    /// Waits until `timeout` has passed without progress, or the watched connection closed,
    /// and says which; `nil` when the waiting task is cancelled first.
    func waitForSilence(_ timeout: Duration) async -> Verdict? {
        while !Task.isCancelled {
            let (deadline, isClosed) = state.withLock { ($0.lastProgress + timeout, $0.isClosed) }
            if isClosed { return .closed }
            let now = ContinuousClock.now
            if now >= deadline { return .silent }
            await closing.wait(timeout: deadline - now)
        }
        return nil
    }
}
#endif
