#if canImport(Glibc)
import Glibc
#endif
import Signals

/// Wakes the store's poller as soon as a connection writes the database's write-ahead log, so
/// another process's commit reaches live objects and results at once instead of at the next
/// poll. The poller then checks `PRAGMA data_version` as it always does: the doorbell only says
/// when to look, never what changed.
///
/// On Linux it is an `inotify` watch of the `-wal` file, one-shot: the poller re-arms it (see
/// ``ChangePoller``). Elsewhere it never rings and the poller keeps its interval.
///
/// Related documentation: inotify(7), <https://www.sqlite.org/wal.html>.
final class WALDoorbell: Sendable {
    /// Why ``wait(_:)`` returned.
    enum Wake {
        case rang
        case timedOut
        case stopped
    }

    /// Set by ``stop()``.
    private let isStopped = LockedCondition(false)
    #if canImport(Glibc)
    private let walPath: String
    /// The `inotify` instance, or -1 when it could not be made (the doorbell then never rings).
    private let watcher: Int32
    /// A pipe whose write end ``stop()`` writes to, so a waiting `poll` returns.
    private let stopReader: Int32
    private let stopWriter: Int32
    #endif

    /// A doorbell for the log at `walPath` (the database's path with `-wal`).
    init(walPath: String) {
        #if canImport(Glibc)
        self.walPath = walPath
        watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        (stopReader, stopWriter) = (ends[0], ends[1])
        #endif
    }

    deinit {
        #if canImport(Glibc)
        for descriptor in [watcher, stopReader, stopWriter] where descriptor >= 0 { close(descriptor) }
        #endif
    }

    /// Listens for the next write to the log (one): after it rings, it is silent until armed
    /// again. Returns whether it listens: not while the log does not exist (call again later),
    /// nor where there is no doorbell. Events left from before (the one-shot watch's removal
    /// notice) are dropped first, so they do not ring.
    func arm() -> Bool {
        #if canImport(Glibc)
        guard watcher >= 0 else { return false }
        drainEvents()
        return inotify_add_watch(watcher, walPath, UInt32(IN_MODIFY) | UInt32(IN_ONESHOT)) >= 0
        #else
        return false
        #endif
    }

    /// Blocks until the log is written (when armed and `listening`), `timeout` passes, or
    /// ``stop()`` is called.
    func wait(_ timeout: Duration, listening: Bool = true) -> Wake {
        #if canImport(Glibc)
        if isStopped.withLock({ $0 }) { return .stopped }
        guard stopReader >= 0 else { return waitForStop(timeout) }
        if !listening && timeout < .milliseconds(1) {
            // poll(2) counts whole milliseconds: a shorter pause sleeps, and a stop waits for it.
            usleep(UInt32(timeout.components.attoseconds / 1_000_000_000_000))
            return isStopped.withLock({ $0 }) ? .stopped : .timedOut
        }
        var descriptors = [pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0), pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)]
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptors, nfds_t(listening && watcher >= 0 ? 2 : 1), max(milliseconds, 1))
        if descriptors[0].revents != 0 || isStopped.withLock({ $0 }) { return .stopped }
        guard ready > 0, descriptors[1].revents & Int16(POLLIN) != 0 else { return .timedOut }
        drainEvents()
        return .rang
        #else
        return waitForStop(timeout)
        #endif
    }

    /// Ends every wait, now and later.
    func stop() {
        isStopped.withLock { $0 = true }
        #if canImport(Glibc)
        if stopWriter >= 0 {
            var byte: UInt8 = 1
            _ = write(stopWriter, &byte, 1)
        }
        #endif
    }

    /// Sleeps until `timeout` passes or ``stop()`` is called.
    private func waitForStop(_ timeout: Duration) -> Wake {
        isStopped.wait(until: { $0 }, timeout: timeout) { _, stopped in stopped ? .stopped : .timedOut }
    }

    #if canImport(Glibc)
    /// Reads the queued events; their content does not matter.
    private func drainEvents() {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while buffer.withUnsafeMutableBytes({ read(watcher, $0.baseAddress, $0.count) }) > 0 {}
    }
    #endif
}
