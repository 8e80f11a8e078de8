import Foundation
import SignalStore
import SignalStoreTestSupport

/// `crash-writer DB MIGRATIONS SEED`: writes through models forever, until killed.
///
/// Before each operation it prints `begin OP`, after the write returned `ack OP`, where OP is
/// `set ID PURCHASE STATUS` or `delete ID`. `PURCHASE` values come from a counter that only
/// grows across runs, so every written value is unique. The parent kills this process at random
/// moments and checks that the database holds every acknowledged operation, plus at most the
/// one that had begun.
func runCrashWriter(path: String, migrations: URL, seed: UInt64) -> Never {
    let store = openStore(path: path, migrations: migrations)
    failOnWriteErrors(of: store)
    var random = SeededGenerator(seed: seed)
    var counter = (try? store.all(Order.self).map(\.purchaseNum).max()) ?? 0
    emit("ready")
    while true {
        counter += 1
        let id = Int64.random(in: 1...6, using: &random)
        let status = "s\(counter)"
        do {
            let order = try store.find(Order.self, id: id)
            switch (order, Int.random(in: 0..<10, using: &random)) {
            case (nil, _):
                emit("begin set \(id) \(counter) \(status)")
                try store.insert(Order(id: id, purchaseNum: counter, status: status))
                emit("ack set \(id) \(counter) \(status)")
            case (let order?, 0):
                emit("begin delete \(id)")
                try store.delete(order)
                emit("ack delete \(id)")
            case (let order?, 1...3):
                emit("begin set \(id) \(counter) \(status)")
                try store.transaction {
                    order.purchaseNum = counter
                    order.status = status
                }
                emit("ack set \(id) \(counter) \(status)")
            case (let order?, _):
                emit("begin set \(id) \(counter) \(order.status)")
                order.purchaseNum = counter
                guard order.purchaseNum == counter else { fail("the write of order \(id) did not stick") }
                emit("ack set \(id) \(counter) \(order.status)")
            }
        } catch {
            fail("operation on order \(id) failed: \(error)")
        }
    }
}
