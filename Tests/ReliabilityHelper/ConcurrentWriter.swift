import Foundation
import SignalStore
import SignalStoreTestSupport

/// `writer DB MIGRATIONS TAG COUNT`: COUNT writes through models on this writer's own orders
/// (ids TAG*1000+1 … TAG*1000+4), a third of them in two-order transactions. A failed write
/// (busy past the timeout, say) prints an error and exits 1. Prints `final ID PURCHASE` for each
/// order at the end.
func runConcurrentWriter(path: String, migrations: URL, tag: Int64, count: Int) -> Never {
    let store = openStore(path: path, migrations: migrations)
    failOnWriteErrors(of: store)
    var random = SeededGenerator(seed: UInt64(tag))
    do {
        let orders = try (Int64(1)...4).map { index in
            let order = Order(id: tag * 1_000 + index, purchaseNum: 0, status: "new")
            try store.insert(order)
            return order
        }
        for step in 1...count {
            let first = orders[Int.random(in: 0..<4, using: &random)]
            if step % 3 == 0 {
                let second = orders[Int.random(in: 0..<4, using: &random)]
                try store.transaction {
                    first.purchaseNum = step
                    second.status = "step \(step)"
                }
            } else {
                first.purchaseNum = step
            }
        }
        for order in orders { emit("final \(order.id) \(order.purchaseNum) \(order.status)") }
    } catch {
        fail("writer \(tag) failed: \(error)")
    }
    store.close()
    exit(0)
}

/// `watcher DB MIGRATIONS`: prints the seq of every change-feed entry from the start, one per
/// line, until killed.
func runWatcher(path: String, migrations: URL) -> Never {
    let store = openStore(path: path, migrations: migrations, pollInterval: .milliseconds(10))
    // The subscription lasts until the parent kills this process.
    store.changes(since: 0).subscribe(
        onValue: { emit("seq \($0.seq)") },
        onFailure: { fail("the feed failed: \($0)") }
    )
    emit("ready")
    while true { sleep(60) }
}
