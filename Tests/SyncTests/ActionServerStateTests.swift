#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// What a downloaded delete's `ON DELETE SET NULL` writes is the server state of the reference
/// it cleared, at the stamp of the row's insert (issue 39), and no later entry of the log that
/// is older than that stamp moves it back, whatever change of this replica's own is pending in
/// the column. The registers as three replicas had them in the chaos test (seed 76 with faults,
/// amplified): A inserted order 80 for customer 29 with the latest stamp; B deleted customer 29
/// and, earlier by stamp, set the order's customer to NULL; C had its own older change of the
/// order's customer pending.
@Suite("Sync: a delete's SET NULL stays the server state")
struct ActionServerStateTests {
    private let folder = TemporaryDirectory()
    private let key = SyncValueCoding.encodeKey([.integer(80)])
    private let null = SyncValueCoding.encode(.null)

    private func stamp(_ clock: Int64, _ origin: String) -> Stamp { Stamp(clock: HybridLogicalClock(rawValue: clock), origin: origin) }

    /// A replica's stamps table holding A's insert of order 80 from the log, and `own` (this
    /// replica's pending change of the order's customer) if given.
    private func replica(_ name: String, own: Stamp?) throws -> Connection {
        let connection = try Connection(path: folder.url.appendingPathComponent("\(name).sqlite").path)
        try StampTable.create(connection)
        try StampTable.raise(.insert, "orders", key, to: stamp(993, "a"), value: #"{"id":{"i":80},"customer_id":{"i":29}}"#, fromServer: true, connection)
        if let own { try StampTable.raise(.column("customer_id"), "orders", key, to: own, value: #"{"i":30}"#, fromServer: false, connection) }
        return connection
    }

    private func customer(_ connection: Connection) throws -> RegisterState? {
        try StampTable.state("orders", key, .column("customer_id"), connection)
    }

    @Test("C: its older pending change no longer acts once the delete's NULL is recorded, and B's NULL, older than the insert, comes after it in the log and leaves the server state as the log has it")
    func anOlderEntryAfterTheActionLeavesIt() throws {
        let c = try replica("c", own: stamp(973, "c"))
        #expect(try StampTable.recordAction("orders", key, column: "customer_id", value: null, c), "the column here takes the NULL")
        #expect(try !StampTable.raise(.column("customer_id"), "orders", key, to: stamp(985, "b"), value: null, fromServer: true, c))
        let state = try customer(c)
        #expect(state?.server == StoredStamp(stamp: stamp(993, "a"), value: null))
        #expect(state?.current == state?.server)
        #expect(try StampTable.serverRow("orders", key, c)?["customer_id"] == .null, "the server state names customer 29 again")
    }

    @Test("B: its own older change, confirmed after the delete's NULL is recorded, is not pending for good")
    func anOwnOlderChangeIsNotPendingForGood() throws {
        let b = try replica("b", own: stamp(985, "b"))
        try StampTable.recordAction("orders", key, column: "customer_id", value: null, b)
        #expect(try customer(b)?.isPending(origin: "b") == false)
        #expect(try customer(b)?.server?.stamp == stamp(993, "a"))
    }

    @Test("a pending change later than the action stays pending, and the server state under it takes the NULL")
    func aLaterPendingChangeStays() throws {
        let c = try replica("c-later", own: stamp(999, "c"))
        #expect(try !StampTable.recordAction("orders", key, column: "customer_id", value: null, c))
        let state = try customer(c)
        #expect(state?.isPending(origin: "c") == true)
        #expect(state?.current.stamp == stamp(999, "c"))
        #expect(state?.server == StoredStamp(stamp: stamp(993, "a"), value: null))
    }
}
#endif
