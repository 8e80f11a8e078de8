import Foundation
import SignalStore

let store = try Store(path: "feed.sqlite", migrations: URL(fileURLWithPath: "Migrations"))
let start = try store.lastChangeSeq   // the file persists: this run's changes come after it

// Every change to every table, by any writer, in seq order: replay, then live.
store.changes(since: start).subscribe(onValue: { change in print(change) })

try store.execute("INSERT OR REPLACE INTO orders (id, purchase_num, status) VALUES (?, ?, ?)",
                  arguments: [.integer(42), .integer(1), .text("open")])
try store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(3), .integer(42)])
// #1 orders[42] insert {"id":42,"purchase_num":1,"status":"open",…}   (in a new file)
// #2 orders[42] update purchase_num: 1 → 3
// A second run's REPLACE first journals the delete of the row it replaces:
// #3 orders[42] delete {"id":42,"purchase_num":3,…}, then #4 insert, #5 update
