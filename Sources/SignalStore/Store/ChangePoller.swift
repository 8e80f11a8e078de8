import Foundation
import Signals

/// Runs the store's check for commits made by other connections on a thread of its own: every
/// `interval`, and at once when the write-ahead log is written (``WALDoorbell``, on Linux), until
/// stopped.
///
/// The doorbell is one-shot, and armed only while the store itself is not writing: each of its
/// own commits writes the log too, and a store that writes continuously would wake its poller
/// for nothing (a measured 4–5 µs a write). One-shot, the watch costs another connection's
/// commit one notification, not one per write (a watch kept armed cost the floor in
/// `LiveQueriesHarness --floor` about 25 µs a commit). When it rings, the poller checks 0.4 ms
/// later (the ring comes with the commit's first write to the log), and again 1 and 4 ms after it
/// while it finds neither another connection's commit nor one of its own (a large commit takes
/// longer). After a check that saw the store's own commits, it keeps to the interval, unarmed,
/// until a check sees none (checking more often cost the writer more than the doorbell saves).
/// So another process's commit arrives within milliseconds when the store has not written for
/// an interval, and within the interval while it writes.
///
/// The thread sleeps in one blocking call between checks, so a check wakes one thread. A
/// dispatch timer woke two (dispatch's timer thread, then a worker for the handler).
final class ChangePoller: Sendable {
    /// What a check found.
    enum Check: Sendable {
        /// Commits of other connections, now published.
        case othersCommits
        /// None of theirs, but the store's own commits since the last check.
        case ownCommits
        /// Nothing since the last check.
        case nothing
    }

    private let doorbell: WALDoorbell

    /// Starts polling.
    /// - Parameters:
    ///   - interval: Time between the end of one regular check and the start of the next.
    ///   - walPath: The write-ahead log whose writes wake the poller.
    ///   - action: The check. Runs on the poller's thread, never concurrently with itself.
    init(interval: Duration, walPath: String, action: @escaping @Sendable () -> Check) {
        let doorbell = WALDoorbell(walPath: walPath)
        self.doorbell = doorbell
        let thread = Thread {
            var armed = false
            var mayArm = true
            while true {
                if !armed && mayArm { armed = doorbell.arm() }
                switch doorbell.wait(interval, listening: armed) {
                case .stopped:
                    return
                case .timedOut:
                    mayArm = action() != .ownCommits
                case .rang:
                    armed = false
                    guard let found = Self.lookBriefly(doorbell, action) else { return }
                    mayArm = found != .ownCommits
                }
            }
        }
        thread.name = "SignalStore.ChangePoller"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Checks once the commit that rang has had `settling` to be written whole, then 1 and 4 ms
    /// after the ring while it finds nothing at all: what it found last, or `nil` when stopped
    /// meanwhile.
    private static func lookBriefly(_ doorbell: WALDoorbell, _ action: () -> Check) -> Check? {
        var found = Check.nothing
        for pause in [settling, .milliseconds(1) - settling, .milliseconds(3)] {
            guard doorbell.wait(pause, listening: false) != .stopped else { return nil }
            found = action()
            guard found == .nothing else { return found }
        }
        return found
    }

    /// How long after the ring a check waits: the doorbell rings at the commit's first write to
    /// the log, and the commit is visible once it is written whole, and synced where the writer
    /// syncs every commit (`synchronous=FULL`, SQLite's default, as the `sqlite3` shell and
    /// Python's `sqlite3` have it). Here a one-row commit was visible within 0.2 ms of the ring
    /// from GRDB in the same process, and 0.3–0.4 ms (median; up to 1 ms) from Python's
    /// `sqlite3`. Checking at once found nothing for every commit, and cost a second check and a
    /// wake-up 1 ms later; at 0.2 ms, half of Python's commits still took the second.
    static let settling = Duration.microseconds(400)

    /// Stops polling: a check already running finishes, and no other starts.
    func stop() {
        doorbell.stop()
    }

    deinit {
        stop()
    }
}
