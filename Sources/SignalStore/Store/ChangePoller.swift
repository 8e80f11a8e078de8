import Foundation
import Signals

/// Runs the store's check for commits made by other connections on a thread of its own: every
/// `interval`, and at once when the write-ahead log is written (``WALDoorbell``, on Linux), until
/// stopped.
///
/// The doorbell is one-shot: after it rang, the poller checks (and again 1 and 4 ms later while
/// it finds nothing: the frames of a commit may still be being written), then arms it again, at
/// once when it found another connection's commit, else 10 ms later. So another process's commit
/// arrives within milliseconds, and a store that writes continuously (each of its own commits
/// writes the log too) wakes its poller at most about 70 times a second.
///
/// The thread sleeps in one blocking call between checks, so a check wakes one thread. A
/// dispatch timer woke two (dispatch's timer thread, then a worker for the handler).
final class ChangePoller: Sendable {
    private let doorbell: WALDoorbell

    /// Starts polling.
    /// - Parameters:
    ///   - interval: Time between the end of one regular check and the start of the next.
    ///   - walPath: The write-ahead log whose writes wake the poller.
    ///   - action: The check; returns whether it found another connection's commit. Runs on the
    ///     poller's thread, never concurrently with itself.
    init(interval: Duration, walPath: String, action: @escaping @Sendable () -> Bool) {
        let doorbell = WALDoorbell(walPath: walPath)
        self.doorbell = doorbell
        let thread = Thread {
            var listening = false
            while true {
                if !listening { listening = doorbell.arm() }
                switch doorbell.wait(interval) {
                case .stopped:
                    return
                case .timedOut:
                    _ = action()
                case .rang:
                    listening = false
                    guard let found = Self.lookBriefly(doorbell, action) else { return }
                    if !found, doorbell.wait(.milliseconds(10)) == .stopped { return }
                }
            }
        }
        thread.name = "SignalStore.ChangePoller"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Checks now, then 1 and 4 ms later while nothing is found: whether a commit was found, or
    /// `nil` when stopped meanwhile.
    private static func lookBriefly(_ doorbell: WALDoorbell, _ action: () -> Bool) -> Bool? {
        for pause in [Duration.milliseconds(1), .milliseconds(3)] {
            if action() { return true }
            guard doorbell.wait(pause) != .stopped else { return nil }
        }
        return action()
    }

    /// Stops polling: a check already running finishes, and no other starts.
    func stop() {
        doorbell.stop()
    }

    deinit {
        stop()
    }
}
