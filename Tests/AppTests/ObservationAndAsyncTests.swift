import Foundation
import Observation
import SignalStore
import SignalStoreTestSupport
import Testing

/// Observation and async iteration of main-actor models, as SwiftUI-style code uses them.
@Suite struct ObservationAndAsyncTests {
    /// In a module whose default isolation is the main actor, a `@Model` class stays
    /// nonisolated (Swift infers no main actor for a type that conforms to a `Sendable` protocol,
    /// SE-0466); one marked `@MainActor` is main-actor isolated.
    @Test func aModelIsMainActorIsolatedOnlyWhenMarked() async throws {
        #expect(!Order._$isolation.isMainActor)
        #expect(Customer._$isolation.isMainActor)
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        // So the README's model is usable from a background task as written.
        await Task.detached {
            order.purchaseNum = 7
            #expect(order.purchaseNum == 7)
        }.value
        #expect(order.purchaseNum == 7)
        store.close()
    }

    @Test func observationHearsBackgroundWritesToAMainActorModelOnTheMainActor() async throws {
        let directory = TemporaryDirectory()
        let (store, customer) = try openStoreWithCustomer(in: directory)
        let changes = Recorder<Bool>()
        withObservationTracking { _ = customer.name } onChange: { changes.record(isOnMainQueue()) }
        try await Task.detached { _ = try store.execute("UPDATE customers SET name = 'Bea' WHERE id = 1") }.value
        #expect(await waitUntil { !changes.values.isEmpty })
        #expect(changes.values == [true], "onChange ran off the main actor")
        #expect(customer.name == "Bea")
        store.close()
    }

    @Test
    func observationHearsTheSQLiteShellOnTheMainActor() async throws {
        let directory = TemporaryDirectory()
        let (store, customer) = try openStoreWithCustomer(in: directory)
        let changes = Recorder<Bool>()
        withObservationTracking { _ = customer.email } onChange: { changes.record(isOnMainQueue()) }
        try sqlite3(directory.path("app.sqlite"), "UPDATE customers SET email = 'ann@example.org' WHERE id = 1;")
        #expect(await waitUntil { !changes.values.isEmpty })
        #expect(changes.values == [true])
        #expect(customer.email == "ann@example.org")
        store.close()
    }

    @Test
    func observationHearsBackgroundAndExternalWritesToANonisolatedModel() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let changes = Recorder<Bool>()
        withObservationTracking { _ = order.purchaseNum } onChange: { changes.record(true) }
        try await Task.detached { _ = try store.execute("UPDATE orders SET purchase_num = 9 WHERE id = 42") }.value
        #expect(await waitUntil { changes.values.count == 1 })
        withObservationTracking { _ = order.status } onChange: { changes.record(true) }
        try sqlite3(directory.path("app.sqlite"), "UPDATE orders SET status = 'shipped' WHERE id = 42;")
        #expect(await waitUntil { changes.values.count == 2 })
        #expect(order.status == "shipped")
        store.close()
    }

    @Test func observationHearsAWriteOnTheMainActorAtOnce() throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let changes = Recorder<Bool>()
        withObservationTracking { _ = order.purchaseNum } onChange: { changes.record(isOnMainQueue()) }
        order.purchaseNum = 2
        #expect(changes.values == [true])
        store.close()
    }

    @Test func valuesStartWithTheCurrentValueThenFollowCommits() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        var seen: [Int] = []
        let reader = Task {
            for await count in order.values(for: \.purchaseNum) {
                seen.append(count)
                if seen.count == 3 { break }
            }
        }
        #expect(await waitUntil { seen == [1] })
        order.purchaseNum = 2
        #expect(await waitUntil { seen == [1, 2] })
        try await Task.detached { _ = try store.execute("UPDATE orders SET purchase_num = 3 WHERE id = 42") }.value
        await reader.value
        #expect(seen == [1, 2, 3])
        store.close()
    }

    /// Regression: each `next()` went through the shared thread pool, so a loop on the main actor
    /// stood still (10 s in CI under a sanitizer) while synchronous work held that pool.
    @Test func aLoopOnTheMainActorKeepsUpWhileTheThreadPoolIsHeld() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let pool = BlockedThreadPool()
        pool.block(limit: 60)   // bounds only a failure: with the fix the loop never needs the pool
        var seen: [Int] = []
        let reader = Task {
            for await count in order.values(for: \.purchaseNum) {
                seen.append(count)
                if count == 1 { order.purchaseNum = 2 } else { break }
            }
            pool.release()
        }
        await reader.value
        #expect(seen == [1, 2])
        #expect(!pool.wasReleasedByWatchdog, "the loop waited for the thread pool")
        store.close()
    }

    @Test func cancellingTheTaskEndsTheSubscription() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        weak var released: Token?
        var seen: [Int] = []
        let reader: Task<Void, Never>
        do {
            let token = Token()
            released = token
            // The token lives only in the subscription's closure, so it is released exactly
            // when the subscription ends.
            let counts = order.signal(for: \.purchaseNum).map { count in token.touch(count) }
            reader = Task {
                for await count in counts.values { seen.append(count) }
            }
        }
        #expect(await waitUntil { seen == [1] })
        #expect(released != nil)
        reader.cancel()
        await reader.value
        #expect(await waitUntil { released == nil }, "the subscription outlived the cancelled task")
        order.purchaseNum = 5
        #expect(seen == [1])
        store.close()
    }
}

/// An object that only a subscription's closure holds.
nonisolated final class Token: Sendable {
    func touch(_ count: Int) -> Int { count }
}
