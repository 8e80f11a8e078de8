import Foundation
import Signals
import SignalsTesting
import Testing
@testable import SignalStore

/// Live aggregates: counts, sums, averages, minimums and maximums, in one total or per group,
/// after every commit of every writer equal to SQL's aggregate of the same rows, and sent only
/// when they change.
@Suite("Live aggregates", .ownThread)
struct LiveAggregateTests {
    /// The aggregates of one store, each beside the SQL that computes it afresh.
    private struct Watched {
        let name: String
        let last: @Sendable () -> String?
        let fresh: String
    }

    private func watch<Value: Sendable>(_ name: String, _ signal: Signal<Value, Never>, fresh: String, _ describe: @escaping @Sendable (Value) -> String) -> (Watched, any Disposable) {
        let last = Locked<String?>(nil)
        let subscription = signal.subscribe(onValue: { value in last.withLock { $0 = describe(value) } })
        return (Watched(name: name, last: { last.withLock { $0 } }, fresh: fresh), subscription)
    }

    private static func describe(_ groups: [String: Int]) -> String {
        groups.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    @Test func everyCommitLeavesEachAggregateEqualToSQLs() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("aggregates.sqlite"), migrations: packageMigrations)
        let foreign = try Connection(path: store.path)
        var random = SeededGenerator(seed: 2_026)
        for id in 1...4 { try store.execute("INSERT INTO customers (id, name) VALUES (\(id), 'c\(id)')") }
        for id in 1...40 { try store.execute(LiveResultsTests.randomInsert(id: Int64(id), &random)) }
        let open: ModelFilter<KeyedOrder> = \.status == "open"
        let sumByCustomer = store.sum(\KeyedOrder.purchaseNum, where: open, groupedBy: \.customerID)
        let sumByCustomerFresh = "SELECT coalesce(group_concat(k || '=' || n, ','), '') FROM (SELECT coalesce(customer_id || '', 'nil') AS k, sum(purchase_num) AS n FROM orders WHERE status = 'open' GROUP BY k ORDER BY k)"
        let describeByCustomer: @Sendable ([Int64?: Int]) -> String = { groups in
            groups.map { ($0.key.map { "\($0)" } ?? "nil", $0.value) }.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        }
        var watched = [
            watch("sum of open by customer", sumByCustomer, fresh: sumByCustomerFresh, describeByCustomer),
            watch("count open", store.count(KeyedOrder.self, where: open), fresh: "SELECT count(*) FROM orders WHERE status = 'open'") { "\($0)" },
            watch("count of customer 2", store.count(KeyedOrder.self, where: \.customerID == 2), fresh: "SELECT count(*) FROM orders WHERE customer_id = 2") { "\($0)" },
            watch("count by status", store.count(KeyedOrder.self, groupedBy: \.status),
                  fresh: "SELECT coalesce(group_concat(status || '=' || n, ','), '') FROM (SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status)") { Self.describe($0) },
            watch("sum of open", store.sum(\KeyedOrder.purchaseNum, where: open), fresh: "SELECT coalesce(sum(purchase_num), 0) FROM orders WHERE status = 'open'") { "\($0)" },
            watch("sum by status", store.sum(\KeyedOrder.purchaseNum, groupedBy: \.status),
                  fresh: "SELECT coalesce(group_concat(status || '=' || n, ','), '') FROM (SELECT status, sum(purchase_num) AS n FROM orders GROUP BY status ORDER BY status)") { Self.describe($0) },
            watch("minimum of open", store.minimum(\KeyedOrder.purchaseNum, where: open), fresh: "SELECT min(purchase_num) FROM orders WHERE status = 'open'") { $0.map { "\($0)" } ?? "NULL" },
            watch("maximum", store.maximum(\KeyedOrder.purchaseNum), fresh: "SELECT max(purchase_num) FROM orders") { $0.map { "\($0)" } ?? "NULL" },
            watch("average of customer 3", store.average(\KeyedOrder.purchaseNum, where: \.customerID == 3),
                  fresh: "SELECT avg(purchase_num) FROM orders WHERE customer_id = 3") { $0.map { "\($0)" } ?? "NULL" },
        ]
        let steps = ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1" ? 3_000 : 200
        for step in 0..<steps {
            // A second subscriber to the same live aggregate starts halfway, from the change
            // last sent and every group's totals.
            if step == steps / 2 { watched.append(watch("sum of open by customer, subscribed late", sumByCustomer, fresh: sumByCustomerFresh, describeByCustomer)) }
            let sql = try LiveResultsTests.commitRandomly(step: step, store, foreign, &random)
            await store.settle()
            for (aggregate, _) in watched {
                let fresh = try store.reading { connection, _ in
                    try connection.statement(aggregate.fresh).map([]) { row -> String? in
                        switch row.column(0) {
                        case .null: "NULL"
                        case .integer(let value): "\(value)"
                        case .real(let value): "\(value)"
                        case .text(let value): value
                        case .blob: "blob"
                        }
                    }.first
                }
                // SQLite's avg and the kept mean may differ in the last bit: compare as numbers.
                if let kept = aggregate.last().flatMap(Double.init), let expected = fresh.flatMap(Double.init) {
                    #expect(abs(kept - expected) <= 1e-9 * max(1, abs(expected)), "step \(step), \(aggregate.name): \(sql)")
                } else {
                    #expect(aggregate.last() == fresh, "step \(step), \(aggregate.name): \(sql)")
                }
            }
        }
        for (_, subscription) in watched { subscription.dispose() }
        store.close()
    }

    @Test func aCommitThatLeavesTheValueEqualSendsNothingAndOneThatChangesItSendsOnce() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for id in 1...3 { try store.insert(Order(id: Int64(id), purchaseNum: id, status: "open")) }
        let open = store.count(Order.self, where: \.status == "open").record()
        let total = store.sum(\Order.purchaseNum).record()
        #expect(open.values == [3] && total.values == [6], "each replays its value on subscribe")
        let first = try #require(try store.find(Order.self, id: 1))
        first.note = "gift"                // neither the count nor the sum changes
        first.purchaseNum = 10             // the sum does
        try store.transaction {            // one commit, two changes: one value
            first.status = "paid"
            try store.insert(Order(id: 4, purchaseNum: 1, status: "open"))
        }
        try store.execute("DELETE FROM orders WHERE id = 2")
        #expect(open.values == [3, 2])
        #expect(total.values == [6, 15, 16, 14])
        #expect(store.count(Order.self, where: "purchase_num > ?", arguments: [.integer(2)]).record().values == [2])
    }

    /// A commit's entries tell a row's membership where they can: a count reads no row when its
    /// filter's column is set, by the store or by the `sqlite3` shell; a sum takes a member's new
    /// value from the entry, and reads an updated row only when it joins (its value is not in the
    /// entries) or when only a collation can tell (`'Open'` for `'open'`); an insert is read by
    /// neither.
    @Test func theEntriesTellACountsRowsWithoutAReadAndASumReadsOnlyARowThatJoins() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("told.sqlite"), migrations: packageMigrations)
        for id in 1...3 { try store.insert(Order(id: Int64(id), purchaseNum: id * 10, status: "open")) }
        let reads = { store.resultsRowReadCount.withLock { $0 } }
        let open = store.count(Order.self, where: \.status == "open").record()
        let first = try #require(try store.find(Order.self, id: 1))
        let start = reads()
        first.status = "paid"
        first.status = "open"
        _ = try run(sqlite3Path(), [store.path, ".timeout 5000", "UPDATE orders SET status = 'void' WHERE id = 2"])
        await store.settle()
        #expect(open.values == [3, 2, 3, 2])
        #expect(reads() == start, "the count read a row its entries told")

        let total = store.sum(\Order.purchaseNum, where: \.status == "open").record()
        first.purchaseNum = 15      // a member's new value, from the entry
        first.status = "paid"       // leaves with the value it held
        #expect(reads() == start, "the sum read a row its entries told")
        first.status = "open"       // joins: its value is read
        #expect(reads() == start + 1)
        first.status = "Open"       // not 'open' in a BINARY column, which a read tells: both read
        #expect(reads() == start + 3)
        // An insert's entry holds the whole row: nothing is read.
        try store.insert(Order(id: 4, purchaseNum: 7, status: "open"))
        _ = try run(sqlite3Path(), [store.path, ".timeout 5000", "INSERT INTO orders (id, purchase_num, status) VALUES (5, 2, 'open'), (6, 9, 'paid')"])
        await store.settle()
        #expect(reads() == start + 3, "an insert was read")
        #expect(total.values == [40, 45, 30, 45, 30, 37, 39])
        #expect(open.values == [3, 2, 3, 2, 1, 2, 1, 2, 3])
        #expect(try store.readConnection { try $0.scalar("SELECT sum(purchase_num) FROM orders WHERE status = 'open'") } == .integer(39))
        store.close()
    }

    @Test func aSumPastItsTypeIsReportedOnceSendsNothingAndSendsAgainOnceItFits() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.insert(Order(id: 1, purchaseNum: 1, status: "open"))
        let total = store.sum(\Order.purchaseNum).record()
        let errors = store.errors.record()
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 9223372036854775807, 'open')")
        try store.execute("UPDATE orders SET purchase_num = 2 WHERE id = 1")   // still past: not reported again
        #expect(total.values == [1], "past Int64, nothing is sent")
        #expect(errors.values.count == 1 && "\(errors.values)".contains("no longer fits"), "\(errors.values)")
        try store.execute("DELETE FROM orders WHERE id = 2")
        #expect(total.values == [1, 2], "it fits again, and sends")
        try store.execute("UPDATE orders SET purchase_num = 5 WHERE id = 1")
        #expect(total.values == [1, 2, 5])
        #expect(errors.values.count == 1, "\(errors.values)")
        // A REAL makes SQL's sum a REAL: 7.5, which no Int holds (reported), until it leaves.
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (3, 2.5, 'open')")
        try store.execute("DELETE FROM orders WHERE id = 3")
        try store.execute("UPDATE orders SET purchase_num = 6 WHERE id = 1")
        #expect(total.values == [1, 2, 5, 6], "the sum is an integer again")
        #expect(errors.values.count == 2, "\(errors.values)")
    }

    /// Like a query signal, an aggregate's signal does not keep its store alive: the released
    /// store closes, and the aggregate completes.
    @Test func anAggregateSignalDoesNotKeepItsStoreAlive() throws {
        let released = try releasingTheStore({ try Store.inMemory(migrations: packageMigrations) }) { $0.count(Order.self) }
        #expect(released.isFreed, "the aggregate's signal keeps the store alive")
        #expect(released.completed, "the released store completed the aggregate")
    }

    @Test func theMaximumIsReadAgainOnlyWhenItLeaves() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for id in 1...5 { try store.insert(Order(id: Int64(id), purchaseNum: id * 10, status: "open")) }
        let largest = store.maximum(\Order.purchaseNum).record()
        let least = store.minimum(\Order.purchaseNum, where: \.status == "paid").record()
        try store.execute("UPDATE orders SET purchase_num = 5 WHERE id = 2")     // not the maximum: nothing
        try store.execute("DELETE FROM orders WHERE id = 5")                     // the maximum leaves
        try store.execute("UPDATE orders SET status = 'paid' WHERE id IN (3, 4)")
        try store.execute("DELETE FROM orders")
        #expect(largest.values == [50, 40, nil])
        #expect(least.values == [nil, 30, nil])
    }

    /// A subscriber starts from the change last sent and every group's totals at a version, and
    /// skips the changes that version holds: subscribers that start while another thread commits
    /// end with the same counts as SQL, none counted twice or missed.
    @Test func subscribersThatStartWhileAnotherThreadCommitsEndEqualToSQLs() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("late.sqlite"), migrations: packageMigrations)
        for id in 1...20 { try store.execute("INSERT INTO customers (id, name) VALUES (\(id), 'c\(id)')") }
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO orders (id, purchase_num, status, customer_id) SELECT i, i, 'open', i % 20 + 1 FROM n")
        let perCustomer = store.count(KeyedOrder.self, groupedBy: \.customerID)
        let writer = Task.detached {
            var random = SeededGenerator(seed: 7)
            for _ in 0..<400 {
                try store.execute("UPDATE orders SET customer_id = \(Int.random(in: 1...20, using: &random)) WHERE id = \(Int.random(in: 1...200, using: &random))")
            }
        }
        var subscribers: [(last: Locked<[Int64?: Int]>, subscription: any Disposable)] = []
        for _ in 0..<40 {
            let last = Locked<[Int64?: Int]>([:])
            subscribers.append((last, perCustomer.subscribe(onValue: { value in last.withLock { $0 = value } })))
            await Task.yield()
        }
        try await writer.value
        await store.settle()
        let fresh = try store.reading { connection, _ in
            try connection.statement("SELECT customer_id, count(*) FROM orders GROUP BY customer_id").map([]) { row -> (Int64?, Int)? in
                guard case .integer(let customer) = row.column(0), case .integer(let count) = row.column(1) else { return nil }
                return (customer, Int(count))
            }
        }
        let expected = Dictionary(uniqueKeysWithValues: fresh)
        for (index, subscriber) in subscribers.enumerated() {
            #expect(subscriber.last.withLock { $0 } == expected, "subscriber \(index)")
            subscriber.subscription.dispose()
        }
        store.close()
    }

    /// The rule the subscribers above rely on, step by step: a change the subscriber's snapshot
    /// already holds (sent after the snapshot was taken) is skipped, a later one is applied for
    /// its groups only, and a change of every group takes a new snapshot.
    @Test func aChangeTheSnapshotAlreadyHoldsIsSkipped() {
        func totals(rows: Int) -> AggregateTotals { var totals = AggregateTotals(); totals.rows = rows; return totals }
        let perGroup = AggregateOutput<[Int64: Int]>.grouped { $0.rows }
        var snapshot: [SQLiteValue: AggregateTotals] = [.integer(1): totals(rows: 3), .integer(2): totals(rows: 5)]
        var version = 7
        let take = { (snapshot, version) }
        var step = AggregateOutput<[Int64: Int]>.Step()
        var sent = perGroup.advance(&step, AggregateChange(version: 6, groups: [.integer(1): totals(rows: 2)]), snapshot: take)
        #expect(sent.send == [1: 3, 2: 5] && step.version == 7, "the first change, whatever it is, starts from the snapshot")
        sent = perGroup.advance(&step, AggregateChange(version: 7, groups: [.integer(1): totals(rows: 2)]), snapshot: take)
        #expect(sent.send == nil && step.current == [1: 3, 2: 5], "version 7 is in the snapshot")
        sent = perGroup.advance(&step, AggregateChange(version: 8, groups: [.integer(2): nil, .integer(9): totals(rows: 1)]), snapshot: take)
        #expect(sent.send == [1: 3, 9: 1] && step.version == 8 && step.current == [1: 3, 9: 1], "a group with no rows leaves; a new one comes")
        snapshot = [.integer(4): totals(rows: 4)]
        version = 12
        sent = perGroup.advance(&step, AggregateChange(version: 12, groups: nil), snapshot: { (snapshot, version) })
        #expect(sent.send == [4: 4] && step.version == 12, "a change of every group reads them all again")
    }
}
