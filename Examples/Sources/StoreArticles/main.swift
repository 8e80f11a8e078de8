import Foundation
import SignalStore
import Synchronization

// The SignalStore catalog's overview (SignalStore.md), as printed, on its own app.sqlite and the
// repository's Migrations/ (copied next to Package.swift): a fresh order 42 first, so that the
// snippet's update has an order to change and the program can run again.
try FileManager.default.createDirectory(atPath: "articles", withIntermediateDirectories: true)
_ = FileManager.default.changeCurrentDirectoryPath("articles")
try? FileManager.default.removeItem(atPath: "Migrations")
try FileManager.default.createSymbolicLink(atPath: "Migrations", withDestinationPath: "../Migrations")
do {
    let setup = try Store(path: "app.sqlite", migrations: URL(fileURLWithPath: "Migrations"))
    try setup.execute("DELETE FROM orders")
    try setup.execute("DELETE FROM customers")
    try setup.execute("INSERT INTO orders (id, purchase_num, status) VALUES (42, 1, 'open')")
    setup.close()
}

let store = try Store(path: "app.sqlite", migrations: URL(fileURLWithPath: "Migrations"))
store.changes(since: 0).subscribe(onValue: { change in print(change) })
try store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(3), .integer(42)])
// #7 orders[42] update purchase_num: 1 → 3

// "Transactions"
guard let order = try store.find(Order.self, id: 42) else { fatalError("order 42 is missing") }
try store.transaction {
    order.purchaseNum = 2
    order.status = "paid"
    try store.insert(Customer(id: 7, name: "Ann"))
}

// "Errors" and "Concurrency in the Store"
check(add(Order(id: 1, purchaseNum: 1, status: "open"), to: store) == "saved")
check(add(Order(id: 2, purchaseNum: -1, status: "open"), to: store) == "rejected by a constraint; nothing was written")
try check(try summary(store) == "1 open, 1 paid")
var openIDs: [[Int64]] = []
let open = openOrders(of: store).subscribeOnMain { orders in openIDs.append(orders.map(\.id)) }
check(openIDs == [[1]])
open.dispose()

// "The Change Feed"
let applied = Mutex<[Int64]>([])
let followed = follow(store, after: 0) { change in applied.withLock { $0.append(change.seq) } }
try check(applied.withLock { $0.count } == Int(try store.lastChangeSeq))
followed.dispose()
let uploaded = Mutex<[Int64]>([])
let uploading = startUploading(store) { change in uploaded.withLock { $0.append(change.seq) } }
try check(try store.consumers.first { $0.name == "uploader" }?.acknowledgedSeq == store.lastChangeSeq)
uploading.dispose()

// "Using SignalStore in an app"
let first = OrderViewModel(order: order)
let cell = OrderCell()
cell.show(order)
order.purchaseNum = 4
check(first.title == "Order × 4" && first.total == "48 €" && first.status == "PAID")
check(cell.countLabel.text == "× 4" && cell.statusLabel.text == "paid")
let observed = Mutex(false)
check(statusOnce(of: order) { observed.withLock { $0 = true } } == "paid")
order.status = "shipped"
check(observed.withLock { $0 })
let label = Label()
let counting = Task { await showCounts(of: order, in: label) }
while label.text != "× 4" { await Task.yield() }
counting.cancel()

// "History and Undo"
try printHistory(of: order, in: store)
let action = try pay(order, in: store)
check(order.status == "paid" && order.purchaseNum == 5)
let undone = try undo(action!, in: store)
check(order.status == "shipped" && order.purchaseNum == 4)
_ = try undo(undone!, in: store)   // redo
check(order.status == "paid" && order.purchaseNum == 5)
try check(try pay(order, in: store) != nil && (try? undo(action!, in: store)) == nil)   // a later change of the same columns: refused

// "Lists That Stay Live"
let list = OrderList(openOrders(in: store))
let big = bigOrders(in: store)
try store.insert(Order(id: 3, purchaseNum: 12, status: "open"))
try store.insert(Order(id: 4, purchaseNum: 0, status: "open"))
check(list.rows == [4, 1, 3])
try store.execute("UPDATE orders SET purchase_num = 20 WHERE id = 4")   // moves to the end
check(list.rows == [1, 3, 4] && big.map(\.id) == [4, 3])
try store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")     // leaves
check(list.rows == [3, 4])

// "Windows: the first rows of a long list"
let top = topOpenOrders(in: store)
check(top.map(\.id) == [4, 3])   // the open orders, largest purchase first
try store.execute("UPDATE orders SET status = 'paid' WHERE id = 4")
check(top.map(\.id) == [3])

// "Live counts and sums"
let openCounts = Mutex<[Int]>([])
let countingOpen = openCount(in: store).subscribe(onValue: { count in openCounts.withLock { $0.append(count) } })
try store.insert(Order(id: 5, purchaseNum: 7, status: "open"))
check(openCounts.withLock { $0.count == 2 && $0[1] == $0[0] + 1 })
countingOpen.dispose()
let sums = Mutex<[String: Int]>([:])
let summing = purchasesPerStatus(in: store).subscribe(onValue: { perStatus in sums.withLock { $0 = perStatus } })
try check(sums.withLock { $0["open"] } == store.all(Order.self, where: \.status == "open").map(\.purchaseNum).reduce(0, +))
summing.dispose()

store.close()
print("Done: the articles' snippets ran as documented")

/// Stops the program with the line that failed when an article's claim does not hold.
func check(_ claim: @autoclosure () throws -> Bool, line: Int = #line) rethrows {
    if try !claim() { fatalError("main.swift:\(line): the article's claim does not hold") }
}
