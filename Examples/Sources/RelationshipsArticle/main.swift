import Foundation
import SignalStore
import Synchronization

// The "Relationships" article's claims, on its own relationships.sqlite (made afresh each run),
// with the article's schema, the many-to-many tables and a RESTRICT rule.
try? FileManager.default.removeItem(atPath: "relationships.sqlite")
let migrations = [
    Migration(version: 1, name: "shop", sql: """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE orders (
            id INTEGER PRIMARY KEY,
            purchase_num INTEGER NOT NULL,
            status TEXT NOT NULL,
            customer_id INTEGER REFERENCES customers (id) ON DELETE SET NULL
        );
        CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE order_tags (
            id INTEGER PRIMARY KEY,
            order_id INTEGER NOT NULL REFERENCES orders ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags ON DELETE RESTRICT
        );
        """),
]
let store = try Store(path: "relationships.sqlite", migrations: migrations)
let ann = Customer(id: 1, name: "Ann"), bob = Customer(id: 2, name: "Bob")
try store.insert(ann)
try store.insert(bob)
let order = Order(id: 10, purchaseNum: 1, status: "open")
order.customer = ann                       // not in a store yet: takes the key, written by insert
try store.insert(order)
check(order.customerID == 1 && order.customer === ann && orderCount(of: ann) == 1)

// "The parent": a move writes the key; the path signal follows it.
let names = Mutex<[String?]>([])
let following = customerName(of: order).subscribe(onValue: { name in names.withLock { $0.append(name) } })
move(order, to: bob)
check(order.customerID == 2 && orderCount(of: ann) == 0 && orderCount(of: bob) == 1)
try store.execute("UPDATE customers SET name = 'Robert' WHERE id = 2")
check(names.withLock { $0 } == ["Ann", "Bob", "Robert"])

// "Loading a graph at once".
try store.insert(Order(id: 11, purchaseNum: 2, status: "open"))
try store.execute("UPDATE orders SET customer_id = 1 WHERE id = 11")
let open = try openOrdersWithCustomers(in: store)
check(open.map { $0.customer?.name } == ["Robert", "Ann"] && open[1].customer === ann)

// "Lists That Stay Live": a list per customer; a move reaches the two it leaves and joins.
let lists = try ordersOfEveryCustomer(in: store)
try store.execute("UPDATE orders SET customer_id = 2 WHERE id = 11")
check(lists.map { $0.map(\.id) } == [[], [10, 11]])
try store.execute("UPDATE orders SET customer_id = 1 WHERE id = 11")   // and back to Ann
check(lists.map { $0.map(\.id) } == [[11], [10]])

// "Filtering and ordering by the parent": renaming a customer moves her orders.
let byName = ordersByCustomerName(in: store)
check(byName.map(\.id) == [11, 10])   // Ann's, then Robert's
try store.execute("UPDATE customers SET name = 'Zed' WHERE id = 1")
check(byName.map(\.id) == [10, 11])
try store.execute("UPDATE customers SET name = 'Ann' WHERE id = 1")

// "Many to many", and the delete rules: RESTRICT refuses, CASCADE and SET NULL follow.
let sale = Tag(id: 1, name: "sale")
try store.insert(sale)
try store.insert(OrderTag(id: 100, orderID: 10, tagID: 1))
check(sale.orderTags.first?.order === order && sale.orderTags.first?.tag === sale)
do {
    try store.delete(sale)
    check(false)
} catch {
    check("\(error)".contains("cannot delete this row of tags: rows of order_tags refer to it"))
}
try store.delete(order)                    // its order_tags rows go with it
check(sale.orderTags.isEmpty)
try store.delete(ann)                      // order 11 keeps going, without a customer
check(open[1].customerID == nil && open[1].customer == nil)
check(names.withLock { $0.last } == "Robert")
following.dispose()

store.close()
print("Done: the Relationships article's claims hold")

/// Stops the program with the line that failed when an article's claim does not hold.
func check(_ claim: @autoclosure () throws -> Bool, line: Int = #line) rethrows {
    if try !claim() { fatalError("main.swift:\(line): the article's claim does not hold") }
}
