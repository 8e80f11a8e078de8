import Foundation
import SignalStore

@Model(table: "orders")
final class Order {
    var id: Int64
    var purchaseNum: Int
    var status: String
    var note: String?
    @Transient var isSelected = false

    init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}

let store = try Store(path: "app.sqlite", migrations: URL(fileURLWithPath: "Migrations"))
try store.execute("DELETE FROM orders WHERE id = 42")   // the file persists: start each run afresh
let order = Order(id: 42, purchaseNum: 1, status: "open")
try store.insert(order)

let bag = DisposeBag()
order.signal(for: \.purchaseNum).subscribe(onValue: { print("list:", $0) }).disposed(by: bag)     // list: 1
order.signal(for: \.purchaseNum).map { $0 * 12 }
    .subscribe(onValue: { print("total:", $0) }).disposed(by: bag)                                  // total: 12
order.signal(for: \.status).subscribe(onValue: { print("status:", $0) }).disposed(by: bag)        // status: open
let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
open.changes.subscribe(onValue: { print("open orders:", $0.objects.count) }).disposed(by: bag)   // open orders: 1

order.purchaseNum = 3                // one UPDATE; list: 3, total: 36, open orders: 1 (status is not told)
try store.transaction {              // one commit; each changed property emits once
    order.purchaseNum = 4
    order.status = "paid"            // list: 4, total: 48, status: paid, open orders: 0
}

// To watch changes by other processes, the program must keep running: an app's run loop does
// that; a command-line tool hands its main thread to the main queue, which also runs main-actor
// work (Ctrl-C ends it). Then `sqlite3 app.sqlite "UPDATE orders SET status = 'shipped'"` in
// another terminal prints status: shipped here.
if CommandLine.arguments.contains("--watch") {
    dispatchMain()
}
