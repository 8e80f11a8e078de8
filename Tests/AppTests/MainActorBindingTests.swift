import Foundation
import SignalStore
import SignalStoreTestSupport
import Testing

/// Views on the main actor bound to a model with `bind(to:_:)` and `subscribeOnMain`, in a
/// target whose default isolation is the main actor: no `assumeIsolated`, no `@unchecked`.
@Suite struct MainActorBindingTests {
    @Test func aBoundViewShowsTheCurrentValueBeforeTheNextLine() throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let view = RecordingBadgeView(order: order)
        #expect(view.text == "× 1")
        #expect(view.statuses == ["open"])
        store.close()
    }

    @Test func aWriteOnTheMainActorIsVisibleWhenTheAssignmentReturns() throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let view = RecordingBadgeView(order: order)
        order.purchaseNum = 3
        #expect(view.text == "× 3")
        try store.transaction {
            order.purchaseNum = 4
            order.status = "paid"
        }
        #expect(view.text == "× 4")
        #expect(view.statuses == ["open", "paid"])
        #expect(view.updatesOffTheMainThread == 0)
        store.close()
    }

    @Test func aBackgroundWriteReachesTheViewOnTheMainThread() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let view = RecordingBadgeView(order: order)
        try await Task.detached {
            #expect(!isOnMainQueue())
            _ = try store.execute("UPDATE orders SET purchase_num = 5, status = 'packed' WHERE id = 42")
        }.value
        #expect(await waitUntil { view.text == "× 5" && view.statuses.last == "packed" })
        #expect(view.updatesOffTheMainThread == 0)
        #expect(order.purchaseNum == 5)
        store.close()
    }

    @Test
    func aWriteByTheSQLiteShellReachesTheViewOnTheMainThread() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let view = RecordingBadgeView(order: order)
        try sqlite3(directory.path("app.sqlite"), "UPDATE orders SET status = 'shipped', purchase_num = 6 WHERE id = 42;")
        #expect(await waitUntil { view.statuses.last == "shipped" && view.text == "× 6" })
        #expect(view.statuses == ["open", "shipped"])
        #expect(view.updatesOffTheMainThread == 0)
        store.close()
    }

    @Test func aReleasedViewIsNotRetainedAndReceivesNothing() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let log = CountLog()
        weak var released: LoggingView?
        do {
            let view = LoggingView(order: order, log: log)
            released = view
            order.purchaseNum = 2
        }
        #expect(released == nil, "the binding keeps the view alive")
        #expect(log.counts == [1, 2])
        order.purchaseNum = 3
        try await Task.detached { _ = try store.execute("UPDATE orders SET purchase_num = 4 WHERE id = 42") }.value
        #expect(await waitUntil { order.purchaseNum == 4 })
        #expect(log.counts == [1, 2], "a released view received a value")
        store.close()
    }

    @Test func disposingOnTheMainActorStopsDeliveryAtOnce() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        var received: [Int] = []
        let subscription = order.signal(for: \.purchaseNum).subscribeOnMain { received.append($0) }
        // A commit on another thread queues its delivery on the main queue; the main actor waits
        // for that commit without giving up its turn, then disposes: the delivery is dropped.
        try DispatchQueue.global().sync {
            _ = try store.execute("UPDATE orders SET purchase_num = 8 WHERE id = 42")
        }
        subscription.dispose()
        await mainQueueTurn()   // the queued delivery has had its turn
        #expect(received == [1])
        store.close()
    }

    @Test func viewsSeeCommitOrderUnderWritesFromFourThreads() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let start = try store.lastChangeSeq
        var received: [Int] = []
        let subscription = order.signal(for: \.purchaseNum).subscribeOnMain { received.append($0) }
        let writesPerThread = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 1...4 {
                group.addTask { @concurrent in
                    for write in 1...writesPerThread {
                        _ = try store.execute("UPDATE orders SET purchase_num = ? WHERE id = 42", arguments: [.integer(Int64(thread * 1_000 + write))])
                    }
                }
            }
            try await group.waitForAll()
        }
        let committed = try store.journalEntries(after: start).compactMap { change -> Int? in
            guard change.column == "purchase_num", case .integer(let value) = change.newValue else { return nil }
            return Int(value)
        }
        #expect(committed.count == 4 * writesPerThread)
        #expect(await waitUntil { received.count == committed.count + 1 })
        #expect(received == [1] + committed)
        subscription.dispose()
        store.close()
    }

    @Test func anExplicitlyMainActorModelBindsTheSameWay() async throws {
        let directory = TemporaryDirectory()
        let (store, customer) = try openStoreWithCustomer(in: directory)
        var names: [String] = []
        let subscription = customer.signal(for: \.name).subscribeOnMain { names.append($0) }
        customer.name = "Anna"
        try await Task.detached { _ = try store.execute("UPDATE customers SET name = 'Ann B.' WHERE id = 1") }.value
        #expect(await waitUntil { names.count == 3 })
        #expect(names == ["Ann", "Anna", "Ann B."])
        #expect(try store.find(Customer.self, id: 1) === customer)
        subscription.dispose()
        store.close()
    }
}
