import Foundation
import Testing
@testable import SignalStore

/// The README's first example, with `print` captured.
@Suite("README model example")
struct ReadmeModelExampleTests {
    @Test func anOrderThreeViewsOneDatabase() throws {
        let directory = TemporaryDirectory()
        let printed = Locked<[String]>([])
        @Sendable func print(_ label: String, _ value: any Sendable) { printed.withLock { $0.append("\(label) \(value)") } }

        let store = try Store(path: directory.path("app.sqlite"), migrations: packageMigrations)
        let order = Order(id: 42, purchaseNum: 1, status: "open")
        try store.insert(order)

        let bag = DisposeBag()
        order.signal(for: \.purchaseNum).subscribe(onValue: { print("list:", $0) }).disposed(by: bag)
        order.signal(for: \.purchaseNum).map { $0 * 12 }
            .subscribe(onValue: { print("total:", $0) }).disposed(by: bag)
        order.signal(for: \.status).subscribe(onValue: { print("status:", $0) }).disposed(by: bag)

        order.purchaseNum = 3
        try store.transaction {
            order.purchaseNum = 4
            order.status = "paid"
        }

        #expect(printed.withLock { $0 } == [
            "list: 1", "total: 12", "status: open",
            "list: 3", "total: 36",
            "list: 4", "total: 48", "status: paid",
        ])
        store.close()
    }
}
