import Foundation
import Testing
@testable import SignalStore

/// The README's store example, compiled and checked.
@Suite("README store example")
struct ReadmeStoreExampleTests {
    @Test func theChangeFeedExample() throws {
        let directory = TemporaryDirectory()
        let printed = Locked<[String]>([])
        @Sendable func print(_ item: Change) { printed.withLock { $0.append(item.description) } }

        let store = try Store(path: directory.path("app.sqlite"), migrations: packageMigrations)

        store.changes(since: 0).subscribe(onValue: { change in print(change) })

        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, ?, ?)",
                          arguments: [.integer(42), .integer(1), .text("open")])
        try store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(3), .integer(42)])

        let lines = printed.withLock { $0 }
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"#1 orders[42] insert {"id":42,"purchase_num":1,"status":"open","#) == true)
        #expect(lines.last == "#2 orders[42] update purchase_num: 1 → 3")
        store.close()
    }
}
