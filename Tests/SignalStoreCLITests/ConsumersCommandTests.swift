import Foundation
import SignalStore
import Testing

/// `signalstore consumers` and `prune` with a durable consumer, through the built binary.
@Suite(.ownThread) struct ConsumersCommandTests {
    @Test func consumersAreListedWithTheirLagAndHoldBackPrune() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)   // two inserts: seq 1 and 2
        let store = try Store(path: path, migrations: packageMigrations)
        let subscription = store.changes(consumer: "sync").subscribe(onValue: { _ in })
        try store.acknowledge(through: 1, consumer: "sync")
        subscription.dispose()
        store.close()

        let listed = try runBinary(["consumers", "--db", path])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.outputLines == ["CONSUMER  ACKNOWLEDGED  LAG", "sync      #1            1"])
        let before = fileBytes(path)
        let refused = try runBinary(["prune", "--through", "2", "--db", path])
        #expect(refused.status == 1)
        #expect(refused.error == "error: consumer 'sync' has acknowledged entries only through seq 1; nothing was pruned; prune through seq 1 or less, or remove the consumer\n")
        #expect(fileBytes(path) == before)
        let removed = try runBinary(["consumers", "--remove", "sync", "--db", path])
        #expect(removed.outputLines.first == "removed consumer sync")
        #expect(try runBinary(["prune", "--through", "2", "--db", path]).status == 0)
        #expect(try runBinary(["consumers", "--json", "--db", path]).output == "[]\n")
    }
}
