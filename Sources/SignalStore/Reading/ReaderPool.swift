import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only connections that read beside the store's single writer.
///
/// In write-ahead-logging mode a reader sees the database as of the start of its read
/// transaction (a *snapshot*) and never waits for the writer, nor the writer for it. Connections
/// are opened on first need, up to ``capacity``; a read that finds them all busy waits for one.
/// A read made while the same thread is already reading (a `store.find` inside a
/// `store.read { … }` body) joins that read's snapshot instead of taking a second connection, so
/// nested reads cannot exhaust the pool and wait for ever.
final class ReaderPool: Sendable {
    /// The most connections open at once.
    let capacity: Int
    private let path: String
    private let busyTimeout: Duration
    /// Waited on by reads that find every connection in use.
    private let state: LockedCondition<State>

    private struct State {
        var idle: [Connection] = []
        /// The connections in use, by the thread reading on each.
        var reading: [(thread: pthread_t, connection: Connection)] = []
        /// The connections free to use: idle, or not opened yet.
        var free: Int
        var isClosed = false
    }

    init(path: String, capacity: Int, busyTimeout: Duration) {
        precondition(capacity > 0, "a reader pool needs at least one connection")
        self.path = path
        self.capacity = capacity
        self.busyTimeout = busyTimeout
        state = LockedCondition(State(free: capacity))
    }

    /// Runs `body` in one read transaction on a reader: every statement in it sees the same
    /// snapshot, which includes every transaction committed before the first statement.
    /// - Throws: ``StoreError/closed`` after ``close()``; the body's errors; ``SQLiteError``.
    func read<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        let thread = pthread_self()
        if let joined = state.withLock({ $0.reading.first { pthread_equal($0.thread, thread) != 0 }?.connection }) {
            return try body(joined)
        }
        let connection = try checkOut(for: thread)
        defer { checkIn(connection) }
        return try connection.transaction(.deferred) { try body(connection) }
    }

    /// Closes the idle connections; those in use close when their read ends. Reads waiting for
    /// a connection fail with ``StoreError/closed``.
    func close() {
        let closing = state.withLock { state -> [Connection] in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = closing   // released here, outside the lock
    }

    /// Takes a free connection, waiting for one when all are in use, and opens it if needed.
    private func checkOut(for thread: pthread_t) throws -> Connection {
        let idle = try state.wait(until: { $0.free > 0 || $0.isClosed }) { state, _ -> Connection? in
            if state.isClosed { throw StoreError.closed }
            state.free -= 1
            return state.idle.popLast()
        }
        do {
            let connection = try idle ?? Connection(path: path, busyTimeout: busyTimeout, readOnly: true)
            state.withLock { $0.reading.append((thread, connection)) }
            return connection
        } catch {
            state.withLock { $0.free += 1 }
            throw error
        }
    }

    private func checkIn(_ connection: Connection) {
        state.withLock { state in
            state.reading.removeAll { $0.connection === connection }
            if !state.isClosed { state.idle.append(connection) }
            state.free += 1
        }
    }

    /// The default size: enough for a few threads reading at once on this machine, without
    /// holding many file descriptors.
    static var defaultCapacity: Int {
        min(max(ProcessInfo.processInfo.activeProcessorCount, 2), 8)
    }
}
