import Foundation
import Observation
import SignalsTesting
import Testing
@testable import SignalStore

/// Observation of a model's properties (`withObservationTracking`, SwiftUI): it hears every
/// committed change of a property it saw read, whoever wrote it, however long the object went
/// unread before.
@Suite("Model observation", .ownThread)
struct ModelObservationTests {
    @Test func observationSeesLocalAndExternalChanges() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        try store.insert(order)
        let fired = Locked(0)
        withObservationTracking { _ = order.purchaseNum } onChange: { fired.withLock { $0 += 1 } }
        order.purchaseNum = 2
        #expect(fired.withLock { $0 } == 1)
        withObservationTracking { _ = order.status } onChange: { fired.withLock { $0 += 1 } }
        try store.execute("UPDATE orders SET status = 'paid'")
        #expect(fired.withLock { $0 } == 2)
        store.close()
    }

    @Test func anObjectChangedWhileNobodyReadItIsObservedFromItsFirstRead() async throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let order = try #require(try store.find(Order.self, id: Int64(1)))
        let values = order.signal(for: \.purchaseNum).record()
        // Changes by the object, the store and the `sqlite3` shell, before any getter ran.
        order.purchaseNum = 2
        try store.execute("UPDATE orders SET purchase_num = 3")
        try sqlite3(store.path, "UPDATE orders SET purchase_num = 4")
        await store.settle()
        #expect(values.values == [1, 2, 3, 4])

        let fired = Locked(0)
        withObservationTracking { _ = order.purchaseNum } onChange: { fired.withLock { $0 += 1 } }
        try sqlite3(store.path, "UPDATE orders SET purchase_num = 5")
        await store.settle()
        #expect(fired.withLock { $0 } == 1)
        withObservationTracking { _ = order.purchaseNum } onChange: { fired.withLock { $0 += 1 } }
        order.purchaseNum = 6
        #expect(fired.withLock { $0 } == 2)
        #expect(order.purchaseNum == 6)
        store.close()
    }

    @Test func aReadOnAnotherThreadIsHeardByAChangeOnThisOne() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        let order = try #require(try store.find(Order.self, id: Int64(1)))
        let fired = Locked(0)
        DispatchQueue.global().sync {
            withObservationTracking { _ = order.status } onChange: { fired.withLock { $0 += 1 } }
        }
        order.status = "paid"
        #expect(fired.withLock { $0 } == 1)
        store.close()
    }

    @Test func anUnmanagedObjectIsObservedFromItsFirstRead() {
        let order = Order(id: 1, purchaseNum: 1, status: "open")
        order.purchaseNum = 2
        let fired = Locked(0)
        withObservationTracking { _ = order.purchaseNum } onChange: { fired.withLock { $0 += 1 } }
        order.purchaseNum = 3
        #expect(fired.withLock { $0 } == 1)
    }
}
