import Foundation
import SignalStore
import Testing

/// Columns chosen on the command line, through the built binary: several for `get`, one across
/// every row for `watch --column`, and a watch with nothing to print says it is waiting.
@Suite(.ownThread) struct ColumnSelectionTests {
    @Test func getTakesSeveralColumns() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = try runBinary(["get", "orders", "2", "status", "purchase_num", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines == ["COLUMN        VALUE", "status        paid", "purchase_num  2"])
        let json = try #require(try parseJSON(try runBinary(["get", "orders", "2", "status", "purchase_num", "--json", "--db", path]).output) as? [String: Any])
        #expect(json.count == 2 && json["status"] as? String == "paid" && json["purchase_num"] as? Int == 2)
        #expect(try runBinary(["get", "orders", "2", "status", "--db", path]).output == "paid\n", "one column stays a raw value")
    }

    @Test func watchColumnFollowsOneColumnAcrossEveryRow() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let watch = try ChildProcess(signalstoreExecutable, ["watch", "orders", "--column", "status", "--db", path])
        #expect(watch.output.wait { $0.contains("now  orders  2  {status: paid}") }, "\(watch.error.value)")
        let writer = try Store(path: path, migrations: packageMigrations)
        try writer.execute("UPDATE orders SET purchase_num = 9 WHERE id = 1")   // another column: not shown
        try writer.execute("UPDATE orders SET status = 'shipped' WHERE id = 2")
        writer.close()
        #expect(watch.output.wait { $0.contains("orders  2  update  status: paid → shipped") }, "\(watch.error.value)")
        watch.send(SIGINT)
        #expect(watch.waitForExit() == 0)
        #expect(watch.output.lines == [
            "now  orders  1  {status: new}",
            "now  orders  2  {status: paid}",
            "#4  orders  2  update  status: paid → shipped",
        ])
    }

    @Test func aWatchWithNothingToPrintSaysItIsWaiting() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let watch = try ChildProcess(signalstoreExecutable, ["watch", "customers", "--db", path])
        #expect(watch.error.wait { $0.contains("note: customers has no rows yet; waiting for changes (Ctrl-C to stop)\n") })
        #expect(watch.output.value.isEmpty)
        watch.send(SIGINT)
        #expect(watch.waitForExit() == 0)
    }
}
