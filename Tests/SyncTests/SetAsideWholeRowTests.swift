#if SIGNALSTORE_SYNC
import Foundation
import SignalStore
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// A row set aside whole (its pending insert or delete) goes back to the server state in every
/// column, so every pending column change of this replica's to it is applied again after the
/// downloaded change, not only the insert or delete it was set aside for (issue 39).
@Suite("Sync: a row set aside whole keeps its pending column changes")
struct SetAsideWholeRowTests {
    private func stamp(_ clock: Int64, _ origin: String) -> Stamp { Stamp(clock: HybridLogicalClock(rawValue: clock), origin: origin) }

    @Test("chaos seed 74 with faults: B's delete of order 2 is older than A's insert of it, B changed the order's purchase and status after that insert, and A's delete of the order's customer sets the row aside; the order keeps B's changes, and the customer's NULL")
    func laterColumnChangesAreAppliedAgain() throws {
        let folder = TemporaryDirectory()
        let b = try Replica(folder, "b")
        let key = SyncValueCoding.encodeKey([.integer(2)])
        let tables = try b.store.readConnection { try SyncedTables(nil, b.store.schema, $0) }
        let own = try b.store.writeTransaction { try ReplicaState.open(tables, $0).origin }
        // The order as B has it: A's insert from the log (purchase 40, shipped), then B's own
        // purchase and status. B's own delete of it, older than A's insert, is pending too.
        try sqlite3(b.path, """
            INSERT INTO customers (id, name) VALUES (26, 'Ann');
            INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (2, 86, 'new', 26);
            """)
        try b.store.writeTransaction { connection in
            try StampTable.raise(.insert, "orders", key, to: stamp(184, "a"), value: #"{"id":{"i":2},"purchase_num":{"i":40},"status":{"t":"shipped"},"customer_id":{"i":26},"note":null,"created_at":{"r":"1"},"updated_at":null}"#, fromServer: true, connection)
            try StampTable.raise(.delete, "orders", key, to: stamp(177, own), fromServer: false, connection)
            try StampTable.raise(.column("purchase_num"), "orders", key, to: stamp(282, own), value: #"{"i":86}"#, fromServer: false, connection)
            try StampTable.raise(.column("status"), "orders", key, to: stamp(282, own), value: #"{"t":"new"}"#, fromServer: false, connection)
            let resolver = ConflictResolver(tables: tables, connection: connection, origin: own, clock: HybridLogicalClock(rawValue: 300))
            let orders = try #require(tables.byName["orders"])
            try resolver.rebase([.init(table: orders, key: [.integer(2)], registers: [.delete])], collidedWith: "A's delete of customer 26") {
                try connection.execute("DELETE FROM customers WHERE id = 26")
            }
        }
        let order = try sqlite3(b.path, "SELECT purchase_num, status, coalesce(customer_id, 'NULL') FROM orders WHERE id = 2")
        #expect(order == "86|new|NULL\n")
    }
}
#endif
