import Foundation
@testable import SignalStore
import Testing

/// Eight threads in one process mix writes, transactions, rollbacks, subscribes and disposes
/// (run under Thread Sanitizer in CI).
@Suite struct ThreadMixTests {
    struct Abort: Error {}

    @Test func eightThreadsMixingWritesTransactionsAndSubscriptionsAgreeWithTheDatabase() throws {
        let iterations = isHeavy ? 3_000 : 300
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("mix.sqlite"), migrations: packageMigrations)
        let orders = try (Int64(1)...16).map { id in
            let order = Order(id: id, purchaseNum: 0, status: "new")
            try store.insert(order)
            return order
        }
        let feed = Locked<[Int64]>([])
        let feedSubscription = store.changes(since: 0).subscribe(onValue: { change in feed.withLock { $0.append(change.seq) } })
        let seen = orders.map { _ in Locked<[Int]>([]) }
        let watchers = orders.enumerated().map { index, order in
            order.signal(for: \.purchaseNum).subscribe(onValue: { value in seen[index].withLock { $0.append(value) } })
        }

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var random = SeededGenerator(seed: UInt64(thread + 1))
            let own = [orders[thread * 2], orders[thread * 2 + 1]]
            var keep: [any Disposable] = []
            for step in 1...iterations {
                let value = step * 8 + thread
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    own[step % 2].purchaseNum = value
                case 2:
                    try? store.transaction {
                        own[0].purchaseNum = value
                        own[1].purchaseNum = value
                        own[0].status = "step \(step)"
                    }
                case 3:
                    let before = own[0].purchaseNum
                    _ = try? store.transaction {
                        own[0].purchaseNum = -value
                        throw Abort()
                    }
                    #expect(own[0].purchaseNum == before)
                case 4:
                    let other = orders.randomElement(using: &random)!
                    keep.append(other.signal(for: \.status).subscribe(onValue: { _ in }))
                    if keep.count > 3 { keep.removeFirst().dispose() }
                default:
                    let found = try? store.find(Order.self, id: Int64.random(in: 1...16, using: &random))
                    #expect(found.map { found in orders.contains { $0 === found } } ?? false, "the identity map returned another instance")
                    store.changes().subscribe(onValue: { _ in }).dispose()
                }
            }
            keep.forEach { $0.dispose() }
        }

        let audit = try DatabaseAudit(path: store.path)
        let rows = try audit.rows(of: "orders")
        for (index, order) in orders.enumerated() {
            #expect(rows[order.id]?["purchase_num"] == .integer(Int64(order.purchaseNum)), "order \(order.id): object and database differ")
            #expect(rows[order.id]?["status"] == .text(order.status))
            let values = seen[index].withLock { $0 }
            #expect(values.last == order.purchaseNum, "order \(order.id): the signal's last value is not the final one")
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "order \(order.id): values arrived out of commit order")
        }
        #expect(feed.withLock { $0 } == (try audit.journal().map(\.seq)), "the feed missed, repeated or reordered entries")
        #expect(try audit.replayedRows(of: "orders") == rows)
        feedSubscription.dispose()
        watchers.forEach { $0.dispose() }
        store.close()
    }
}
