#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// A register whose server state is its current state keeps its value once (`base_value` is
/// `NULL`); every write that moves the current state away from the server state must first
/// copy the value into `base_value`, or the server state would read the new value. Each step
/// reads the server state back as the resolver does (``StampTable/state(_:_:_:_:)``).
@Suite("Sync: the stamps table stores a register's value once while its server state is its current state")
struct StampValueOnceTests {
    private let origin = "a", other = "b"
    private let folder = TemporaryDirectory()

    private func open() throws -> Connection {
        let connection = try Connection(path: folder.url.appendingPathComponent("stamps.sqlite").path)
        try StampTable.create(connection)
        return connection
    }

    private func stamp(_ clock: Int64, _ origin: String) -> Stamp { Stamp(clock: HybridLogicalClock(rawValue: clock), origin: origin) }

    private func stored(_ connection: Connection) throws -> SQLiteValue? {
        try connection.scalar("SELECT base_value FROM \(StampTable.name) WHERE tbl = 't' AND row_key = 'k' AND col = 'c'")
    }

    @Test("from the log: stored once; a later pending change keeps the log's value as the server state, and restoring it brings that value back")
    func pendingOverTheLogsValue() throws {
        let connection = try open()
        try StampTable.raise(.column("c"), "t", "k", to: stamp(10, other), value: "\"log\"", fromServer: true, connection)
        #expect(try stored(connection) == .null)
        #expect(try StampTable.state("t", "k", .column("c"), connection)?.server?.value == "\"log\"")

        try StampTable.raise(.column("c"), "t", "k", to: stamp(20, origin), value: "\"mine\"", fromServer: false, connection)
        let pending = try StampTable.state("t", "k", .column("c"), connection)
        #expect(pending?.current.value == "\"mine\"" && pending?.server?.value == "\"log\"")

        try StampTable.lowerPending(.column("c"), "t", "k", to: stamp(15, origin), value: "\"earlier\"", connection)
        #expect(try StampTable.state("t", "k", .column("c"), connection)?.server?.value == "\"log\"")

        try StampTable.restoreServerState(.column("c"), "t", "k", connection)
        let restored = try StampTable.state("t", "k", .column("c"), connection)
        #expect(restored?.current == restored?.server && restored?.current.value == "\"log\"")
        #expect(try stored(connection) == .null)
    }

    @Test("the log moves the server state under a pending change: the new server value is stored; the log's change of the same stamp as the current one stores nothing")
    func serverStateMovesUnderPending() throws {
        let connection = try open()
        try StampTable.raise(.column("c"), "t", "k", to: stamp(30, origin), value: "\"mine\"", fromServer: false, connection)
        // An earlier change from the log: the pending one stays current, the log's is the server state.
        #expect(try !StampTable.raise(.column("c"), "t", "k", to: stamp(20, other), value: "\"theirs\"", fromServer: true, connection))
        let state = try StampTable.state("t", "k", .column("c"), connection)
        #expect(state?.current.value == "\"mine\"" && state?.server?.value == "\"theirs\"")
        #expect(try stored(connection) == .text("\"theirs\""))
    }

    @Test("a file written before the value was stored once (base_value repeated) reads the same and is rewritten correctly")
    func olderFiles() throws {
        let connection = try open()
        try connection.execute("INSERT INTO \(StampTable.name) VALUES ('t', 'k', 'c', 10, 'b', '\"log\"', 10, 'b', '\"log\"')")
        #expect(try StampTable.state("t", "k", .column("c"), connection)?.server?.value == "\"log\"")
        try StampTable.raise(.column("c"), "t", "k", to: stamp(20, origin), value: "\"mine\"", fromServer: false, connection)
        #expect(try StampTable.state("t", "k", .column("c"), connection)?.server?.value == "\"log\"")
    }
}
#endif
