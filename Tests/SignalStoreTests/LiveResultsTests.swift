import Foundation
import Observation
import Testing
@testable import SignalStore

/// Live results: a result that changes by row, from every writer, checked against a fresh query
/// and against the indices it reports.
@Suite("Live results", .ownThread)
struct LiveResultsTests {
    /// The queries the model test runs: incremental ones (typed, SQL with collations and
    /// directions, key order) and ones that re-run (a subquery, an expression ordering).
    struct Query: Sendable, CustomTestStringConvertible {
        let name: String
        let predicate: String?
        let orderBy: String?
        /// A window's size, or `nil` for every row.
        var limit: Int? = nil
        var testDescription: String { name }

        static let all = [
            Query(name: "open by purchase", predicate: "status = 'open'", orderBy: "purchase_num"),
            Query(name: "even, note nocase desc", predicate: "purchase_num % 2 = 0", orderBy: "note COLLATE NOCASE DESC, purchase_num ASC"),
            Query(name: "every row, status desc", predicate: nil, orderBy: "\"status\" DESC"),
            Query(name: "rowid order", predicate: "note IS NOT NULL", orderBy: nil),
            Query(name: "subquery", predicate: "customer_id IN (SELECT id FROM customers WHERE name < 'm')", orderBy: "status, purchase_num DESC"),
            Query(name: "expression order", predicate: "status != 'void'", orderBy: "purchase_num * -1"),
            Query(name: "window: first 5 open by purchase", predicate: "status = 'open'", orderBy: "purchase_num", limit: 5),
            Query(name: "window: first 8, note nocase desc", predicate: nil, orderBy: "note COLLATE NOCASE DESC, purchase_num ASC", limit: 8),
            Query(name: "window: first 3 in rowid order", predicate: "purchase_num > 4", orderBy: nil, limit: 3),
            Query(name: "window: first 4 of a subquery", predicate: "customer_id IN (SELECT id FROM customers WHERE name < 'm')", orderBy: "status, purchase_num DESC", limit: 4),
            Query(name: "window: none", predicate: nil, orderBy: "purchase_num", limit: 0),
        ]
    }

    /// A typed query and the SQL of the fresh query it is checked against.
    struct TypedQuery<Model: PersistentModel>: Sendable, CustomTestStringConvertible {
        let name: String
        let results: @Sendable (Store) -> LiveResults<Model>
        let predicate: String?
        let orderBy: String
        var limit: Int? = nil
        var testDescription: String { name }
    }

    @Test(arguments: Query.all)
    func everyCommitLeavesTheResultOfAFreshQueryAndIndicesThatGetThere(_ query: Query) async throws {
        let directory = TemporaryDirectory()
        var (store, foreign, random) = try Self.randomShop(directory, seed: UInt64(query.name.utf8.count) * 7_919)
        if query.limit != nil {
            // The index a user adds for a window's query: the rows it reads must still be looked up by rowid.
            try store.execute("CREATE INDEX orders_by_status_purchase ON orders(status, purchase_num)")
        }
        let results = store.results(Order.self, where: query.predicate, orderBy: query.orderBy, limit: query.limit)
        try await Self.expectEveryCommitLeavesAFreshQuerysResult(results, id: \.id, predicate: query.predicate, orderBy: query.orderBy, limit: query.limit, store, foreign, &random)
        store.close()
    }

    /// Commits random statements (`commit`, ``commitRandomly(step:_:_:_:)`` unless told) and
    /// checks after each that `results` is what the fresh query of `predicate`, `orderBy` (then
    /// the rowid) and `limit` returns, and that the indices it sent lead there; `afterEach` checks
    /// more.
    static func expectEveryCommitLeavesAFreshQuerysResult<Model: PersistentModel>(
        _ results: LiveResults<Model>, id: KeyPath<Model, Int64>, predicate: String?, orderBy: String?, limit: Int?,
        _ store: Store, _ foreign: Connection, _ random: inout SeededGenerator,
        commit: (Int, Store, Connection, inout SeededGenerator) throws -> String = commitRandomly(step:_:_:_:),
        afterEach: (_ step: Int, _ sql: String) throws -> Void = { _, _ in }
    ) async throws {
        let received = Locked<[ResultsChange<Model>]>([])
        let subscription = results.changes.subscribe(onValue: { change in received.withLock { $0.append(change) } })
        defer { subscription.dispose() }
        var shown = try #require(received.withLock { $0.first }).objects.map { $0[keyPath: id] }
        received.withLock { $0 = [] }
        let steps = ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1" ? 3_000 : 300
        for step in 0..<steps {
            let sql = try commit(step, store, foreign, &random)
            await store.settle()
            let all = try store.all(Model.self, where: predicate, orderBy: orderBy.map { "\($0), rowid" } ?? "rowid").map { $0[keyPath: id] }
            let expected = Array(all.prefix(limit ?? all.count))
            #expect(results.map { $0[keyPath: id] } == expected, "step \(step): \(sql)")
            shown = replay(received.withLock { updates in defer { updates = [] }; return updates }, onto: shown, id: id, "step \(step): \(sql)")
            #expect(shown == expected, "step \(step): the last update is the result (\(sql))")
            try afterEach(step, sql)
        }
    }

    /// Typed queries, whose changed rows the commits' entries tell where they can
    /// (``JournalMembership``): a text key, an integer key, every row, a filter of another form,
    /// orderings by a column that NULLs and ties fill, and a window (which reads instead).
    static let typedQueries: [TypedQuery<KeyedOrder>] = [
        TypedQuery(name: "status == open, by purchase", results: { $0.results(KeyedOrder.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum)) },
                   predicate: "status = 'open'", orderBy: "purchase_num"),
        TypedQuery(name: "customer == 2, by note desc", results: { $0.results(KeyedOrder.self, where: \.customerID == 2, orderBy: .descending(\.note)) },
                   predicate: "customer_id = 2", orderBy: "note DESC"),
        TypedQuery(name: "every row, by status then id desc", results: { $0.results(KeyedOrder.self, orderBy: .ascending(\.status), .descending(\.id)) },
                   predicate: nil, orderBy: "status, id DESC"),
        TypedQuery(name: "purchase > 4, by customer", results: { $0.results(KeyedOrder.self, where: \.purchaseNum > 4, orderBy: .ascending(\.customerID)) },
                   predicate: "purchase_num > 4", orderBy: "customer_id"),
        TypedQuery(name: "window: first 4 open by purchase", results: { $0.results(KeyedOrder.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum), limit: 4) },
                   predicate: "status = 'open'", orderBy: "purchase_num", limit: 4),
    ]

    @Test(arguments: typedQueries)
    func everyCommitLeavesATypedResultEqualToAFreshQuery(_ query: TypedQuery<KeyedOrder>) async throws {
        let directory = TemporaryDirectory()
        var (store, foreign, random) = try Self.randomShop(directory, seed: UInt64(query.name.utf8.count) * 104_729)
        try await Self.expectEveryCommitLeavesAFreshQuerysResult(query.results(store), id: \.id, predicate: query.predicate, orderBy: query.orderBy, limit: query.limit, store, foreign, &random)
        store.close()
    }

    /// A store on a file in `directory` with 4 customers and 40 random orders, another
    /// connection to it, and the generator that made the orders (seeded with `seed`), for the
    /// model tests' random commits.
    static func randomShop(_ directory: TemporaryDirectory, seed: UInt64) throws -> (Store, Connection, SeededGenerator) {
        let store = try Store(path: directory.path("shop.sqlite"), migrations: packageMigrations)
        let foreign = try Connection(path: store.path)
        var random = SeededGenerator(seed: seed)
        for id in 1...4 { try store.execute("INSERT INTO customers (id, name) VALUES (\(id), 'c\(id)')") }
        for id in 1...40 { try store.execute(randomInsert(id: Int64(id), &random)) }
        return (store, foreign, random)
    }

    /// Applies each update's indices to the ids `shown` before it, checks that they lead to the
    /// objects the update carries (and that its modifications are indices of them), and returns
    /// the ids after the last.
    static func replay<Model: PersistentModel>(_ changes: [ResultsChange<Model>], onto shown: [Int64], id: KeyPath<Model, Int64>, _ context: String) -> [Int64] {
        var shown = shown
        for case .update(let objects, let deletions, let insertions, let modifications) in changes {
            var applied = shown
            for index in deletions.reversed() { applied.remove(at: index) }
            for index in insertions { applied.insert(objects[index][keyPath: id], at: index) }
            #expect(applied == objects.map { $0[keyPath: id] }, "\(context): the indices lead to the new result")
            #expect(modifications.allSatisfy { objects.indices.contains($0) }, "\(context): modifications are indices of the new result")
            shown = objects.map { $0[keyPath: id] }
        }
        return shown
    }

    /// Commits a random statement (``randomStatement(_:)``), by turns from the `sqlite3` shell,
    /// from `foreign` (another connection) and from the store; returns it. A statement that fails
    /// (a key taken) changes nothing, whoever runs it.
    static func commitRandomly(step: Int, _ store: Store, _ foreign: Connection, _ random: inout SeededGenerator) throws -> String {
        let sql = randomStatement(&random)
        switch step % 10 {
        case 0:
            _ = try run(sqlite3Path(), [store.path, ".timeout 5000", sql])
        case 1, 2, 3:
            do { try foreign.execute(sql) } catch { try? foreign.execute("ROLLBACK") }
        default:
            // The store runs it in a transaction of its own.
            _ = try? store.execute(sql.replacingOccurrences(of: "BEGIN; ", with: "").replacingOccurrences(of: " COMMIT;", with: ""))
        }
        return sql
    }

    static func randomInsert(id: Int64, _ random: inout SeededGenerator) -> String {
        let statuses = ["open", "paid", "void", "Open"]
        let notes = ["NULL", "'a'", "'B'", "'b'", "'A '", "'c'"]
        return "INSERT INTO orders (id, purchase_num, status, note, customer_id) VALUES (\(id), \(Int.random(in: 0...9, using: &random)), '\(statuses.randomElement(using: &random)!)', \(notes.randomElement(using: &random)!), \(Bool.random(using: &random) ? "NULL" : String(Int.random(in: 1...4, using: &random))))"
    }

    /// A random commit: inserts, updates in and out of filters and across orders, deletes,
    /// REPLACE evictions, key changes, customers renamed (for the subquery), transactions.
    static func randomStatement(_ random: inout SeededGenerator) -> String {
        let id = Int64.random(in: 1...60, using: &random)
        let other = Int64.random(in: 1...60, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return randomInsert(id: id, &random)
        case 1: return "REPLACE" + randomInsert(id: id, &random).dropFirst("INSERT".count)
        case 2: return "UPDATE orders SET purchase_num = \(Int.random(in: 0...9, using: &random)) WHERE id = \(id)"
        case 3: return "UPDATE orders SET status = '\(["open", "paid", "void", "Open"].randomElement(using: &random)!)' WHERE id = \(id)"
        case 4: return "UPDATE orders SET note = \(["NULL", "'a'", "'B'", "'b'"].randomElement(using: &random)!) WHERE id = \(id)"
        case 5: return "DELETE FROM orders WHERE id = \(id)"
        case 6: return "UPDATE orders SET id = \(other + 100) WHERE id = \(id)"
        case 7: return "INSERT OR REPLACE INTO customers (id, name) VALUES (\(Int.random(in: 1...4, using: &random)), '\(["al", "zed", "bo", "pat"].randomElement(using: &random)!)')"
        case 8: return "BEGIN; \(randomInsert(id: id + 200, &random)); UPDATE orders SET purchase_num = 9 - purchase_num WHERE id % 3 = \(id % 3); DELETE FROM orders WHERE id = \(other); COMMIT;"
        default: return "UPDATE orders SET customer_id = \(Int.random(in: 1...4, using: &random)) WHERE id = \(id)"
        }
    }

    @Test func changesReplayTheResultThenIndicesPerCommit() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for (id, purchase) in [(1, 5), (2, 3), (3, 8)] { try store.insert(Order(id: Int64(id), purchaseNum: purchase, status: "open")) }
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
        #expect(open.map(\.id) == [2, 1, 3])
        let recorder = open.changes.record()
        #expect(recorder.values.count == 1, "the result replays before subscribe returns")
        let first = try #require(try store.find(Order.self, id: 1))
        first.purchaseNum = 9                                   // moves to the end
        first.note = "x"                                        // stays: a modification
        try store.find(Order.self, id: 2)?.status = "paid"      // leaves
        try store.insert(Order(id: 4, purchaseNum: 0, status: "open"))   // joins first
        let updates = recorder.values.dropFirst().map { change -> [[Int]] in
            guard case .update(_, let deletions, let insertions, let modifications) = change else { return [] }
            return [deletions, insertions, modifications]
        }
        #expect(updates == [[[1], [2], []], [[], [], [2]], [[0], [], []], [[], [0], []]])
        #expect(recorder.values.last?.objects.map(\.id) == [4, 3, 1])
        #expect(recorder.values.last?.objects.last === first, "the live instances")
        store.close()
    }

    @Test func aWindowIsRefilledWhenARowLeavesAndPushesItsLastOutWhenOneEnters() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for id in 1...10 { try store.insert(Order(id: Int64(id), purchaseNum: id * 10, status: "open")) }
        let top = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum), limit: 3)
        #expect(top.map(\.id) == [1, 2, 3])
        let recorder = top.changes.record()
        try store.find(Order.self, id: 2)?.status = "paid"                   // leaves: 4 comes in
        #expect(top.map(\.id) == [1, 3, 4])
        try store.insert(Order(id: 11, purchaseNum: 5, status: "open"))     // enters first: 4 goes
        #expect(top.map(\.id) == [11, 1, 3])
        try store.find(Order.self, id: 1)?.purchaseNum = 95                 // moves past the window: 4 again
        #expect(top.map(\.id) == [11, 3, 4])
        try store.find(Order.self, id: 3)?.note = "gift"                    // a member's value: a modification
        let updates = recorder.values.dropFirst().map { change -> [[Int]] in
            guard case .update(_, let deletions, let insertions, let modifications) = change else { return [] }
            return [deletions, insertions, modifications]
        }
        #expect(updates == [[[1], [2], []], [[2], [0], []], [[1], [2], []], [[], [], [1]]])
        let reads = store.resultsRowReadCount.withLock { $0 }
        try store.find(Order.self, id: 9)?.purchaseNum = 91                 // after the window: one read, no update
        #expect(store.resultsRowReadCount.withLock { $0 } == reads + 1)
        #expect(recorder.values.count == updates.count + 1)
        try store.execute("DELETE FROM orders WHERE purchase_num > 20")   // the window empties to what is left
        #expect(top.map(\.id) == [11])
        store.close()
    }

    @Test func integersAndRealsCompareAsSQLiteComparesThemEvenPast2To53() throws {
        let connection = try Connection(path: ":memory:")
        let big: Int64 = 9_007_199_254_740_993   // 2^53 + 1: no Double holds it
        let pairs: [(Int64, Double)] = [
            (big, 9_007_199_254_740_992), (big - 1, 9_007_199_254_740_992), (big - 2, 9_007_199_254_740_992),
            (.max, 9_223_372_036_854_775_808), (.min, -9_223_372_036_854_775_808), (3, 3.5), (-3, -3.5), (4, 4), (0, -0.0),
        ]
        for (integer, real) in pairs {
            let sqlite = try #require(connection.scalar("SELECT (? > ?) - (? < ?)", [.integer(integer), .real(real), .integer(integer), .real(real)])?.integerValue)
            #expect(Int64(ResultsOrdering.compare(.integer(integer), .real(real), .binary)) == sqlite, "\(integer) against \(real)")
            #expect(Int64(ResultsOrdering.compare(.real(real), .integer(integer), .binary)) == -sqlite, "\(real) against \(integer)")
        }
    }

    @Test func manyRowsMovingAtOnceKeepTheirObjectsAndTheOrder() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'open' FROM n")
        let all = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
        let before = Dictionary(uniqueKeysWithValues: all.objects.map { ($0.id, ObjectIdentifier($0)) })
        try store.execute("UPDATE orders SET purchase_num = 2000 - purchase_num WHERE id % 10 = 0; DELETE FROM orders WHERE id % 97 = 0")
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (5000, 500, 'open'), (5001, 1, 'open')")
        let expected = try store.all(Order.self, where: "status = 'open'", orderBy: "purchase_num, rowid").map(\.id)
        #expect(all.map(\.id) == expected)
        #expect(all.objects.allSatisfy { order in before[order.id].map { $0 == ObjectIdentifier(order) } ?? true }, "a row that moved keeps its object")
        // More rows arrive than leave: the objects' array grows while rows move.
        let loaded = Dictionary(uniqueKeysWithValues: all.objects.map { ($0.id, ObjectIdentifier($0)) })
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) INSERT INTO orders (id, purchase_num, status) SELECT 6000 + i, i * 15, 'open' FROM n; UPDATE orders SET purchase_num = purchase_num + 7 WHERE id % 25 = 1")
        #expect(all.map(\.id) == (try store.all(Order.self, where: "status = 'open'", orderBy: "purchase_num, rowid").map(\.id)))
        #expect(all.objects.allSatisfy { order in loaded[order.id].map { $0 == ObjectIdentifier(order) } ?? (order.id > 6000) }, "a row that moved keeps its object; a new one gets its own")
        store.close()
    }

    @Test(arguments: ["purchase_num % 7, purchase_num DESC", "purchase_num * -1"])
    func aFirstReadOfManyRowsPutsEachObjectAtItsRow(_ orderBy: String) throws {
        // Placed in one walk of the rows (keys that tie in the first term; an ordering that
        // re-runs and has no keys to search by), and a few later ones one by one.
        let store = try Store.inMemory(migrations: packageMigrations)
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'open' FROM n")
        let all = store.results(Order.self, where: "status = 'open'", orderBy: orderBy)
        let expected = { try store.all(Order.self, where: "status = 'open'", orderBy: "\(orderBy), rowid").map(\.id) }
        #expect(all.objects.map(\.id) == (try expected()))
        #expect(all.objects.allSatisfy { order in (try? store.find(Order.self, id: order.id)).map { $0 === order } == true }, "each object is the live instance of its row")
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (4001, 4001, 'open'), (4002, 14, 'open')")
        #expect(all.objects.map(\.id) == (try expected()))
        store.close()
    }

    @Test("a first read of most rows (by the filter) that meets a commit not yet applied shows each row's object: a row that left the filter read by rowid, a deleted one as its journaled image")
    func aFirstReadMeetingACommitNotYetAppliedShowsEveryRow() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("first.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO orders (id, purchase_num, status) SELECT i, i, 'open' FROM n")
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.id))
        #expect(open.count == 1_200)
        // Deliveries wait in a subscriber of the feed while the shell commits again, so the
        // result has not applied that commit when its objects are read.
        let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let holding = store.changes().subscribe(onValue: { change in
            guard change.rowID == 1, change.column == "note" else { return }
            entered.signal()
            _ = release.wait(timeout: .now() + 30)
        })
        try sqlite3(path, "UPDATE orders SET note = 'hold' WHERE id = 1")
        try #require(entered.wait(timeout: .now() + 30) == .success, "the shell's commit reached the feed")
        try sqlite3(path, "BEGIN; UPDATE orders SET status = 'paid' WHERE id = 7; DELETE FROM orders WHERE id = 8; COMMIT;")
        let shown = open.objects
        release.signal()
        #expect(shown.map(\.id) == Array(1...1_200))
        #expect(shown[6].status == "paid", "read by its rowid, as it is now")
        #expect(shown[7].purchaseNum == 8 && shown[7].status == "open", "the image the journal holds of it")
        await store.settle()
        #expect(open.map(\.id) == Array(1...6) + Array(9...1_200))
        holding.dispose()
        store.close()
    }

    @Test func aTransactionIsOneUpdateAndARollbackNone() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let open = store.results(Order.self, where: \.status == "open", orderBy: .descending(\.id))
        let recorder = open.changes.record()
        try store.transaction {
            for id in 1...100 { try store.insert(Order(id: Int64(id), purchaseNum: id, status: id % 2 == 0 ? "open" : "paid")) }
        }
        #expect(recorder.values.count == 2)
        #expect(open.count == 50)
        #expect(open.first?.id == 100)
        struct Stop: Error {}
        _ = try? store.transaction {
            try store.execute("DELETE FROM orders")
            throw Stop()
        }
        #expect(recorder.values.count == 2, "a rolled-back transaction sends nothing")
        #expect(open.count == 50)
        store.close()
    }

    @Test func observationSeesMembershipChanges() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.id))
        let changed = Locked(false)
        withObservationTracking { _ = open.count } onChange: { changed.withLock { $0 = true } }
        try store.insert(Order(id: 1, purchaseNum: 1, status: "paid"))
        #expect(!changed.withLock { $0 }, "a row outside the result changes nothing")
        try store.execute("UPDATE orders SET status = 'open'")
        #expect(changed.withLock { $0 })
        #expect(open.map(\.id) == [1])
        store.close()
    }

    @Test
    func theShellsCommitReachesTheResultAsOneUpdate() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("shell.sqlite"), migrations: packageMigrations)
        for id in 1...10 { try store.insert(Order(id: Int64(id), purchaseNum: id, status: "open")) }
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
        let recorder = open.changes.record()
        try sqlite3(store.path, "BEGIN; UPDATE orders SET purchase_num = 20 WHERE id = 1; UPDATE orders SET status = 'paid' WHERE id = 5; INSERT INTO orders (id, purchase_num, status) VALUES (11, 0, 'open'); COMMIT;")
        #expect(await recorder.events(count: 2))
        guard case .update(let objects, let deletions, let insertions, let modifications)? = recorder.values.last else {
            Issue.record("no update")
            return
        }
        #expect(objects.map(\.id) == [11, 2, 3, 4, 6, 7, 8, 9, 10, 1])
        #expect(deletions == [0, 4])
        #expect(insertions == [0, 9])
        #expect(modifications == [])
        #expect(objects.last?.purchaseNum == 20, "the objects hold their new values")
        store.close()
    }

    @Test func aFilterThatCannotBeReadIsReportedAndTheResultIsEmpty() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let errors = store.errors.record()
        let broken = store.results(Order.self, where: "no_such_column = 1")
        #expect(broken.isEmpty)
        #expect(errors.values.count == 1)
        #expect(errors.values.first.map { "\($0)".contains("no_such_column") } == true)
        store.close()
    }

    @Test
    func entriesPrunedBeforeTheStoreReadThemMakeTheResultRunAgain() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("pruned.sqlite"), migrations: packageMigrations)
        for id in 1...3 { try store.insert(Order(id: Int64(id), purchaseNum: id, status: "open")) }
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.id))
        // Another process changes a row and prunes the journal in one commit: no entry of it is
        // ever read here. The next commit's entries then do not follow the last one applied.
        try sqlite3(store.path, "BEGIN; UPDATE orders SET status = 'paid' WHERE id = 2; DELETE FROM _signalstore_changes; COMMIT;")
        await store.settle()
        try sqlite3(store.path, "INSERT INTO orders (id, purchase_num, status) VALUES (4, 4, 'open')")
        await store.settle()
        #expect(open.map(\.id) == [1, 3, 4])
        store.close()
    }

    @Test("a row that another process deleted and pruned from the journal before the result read its object stands in with its key and zero values, reported, until the result runs again")
    func aRowGoneWithItsJournalStandsInUntilTheDeleteIsApplied() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("gone.sqlite")
        try Store(path: path, migrations: packageMigrations).close()
        try sqlite3(path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open'), (2, 2, 'open'), (3, 3, 'open')")
        let store = try Store(path: path, migrations: packageMigrations, pollInterval: .seconds(3_600))
        let errors = store.errors.record()
        let open = store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.id))
        #expect(open.count == 3)
        // Before this store hears of it, another process deletes row 2 and prunes every entry.
        try sqlite3(path, "BEGIN; DELETE FROM orders WHERE id = 2; DELETE FROM _signalstore_changes; COMMIT;")
        let shown = open.map { "\($0.id) \($0.purchaseNum) '\($0.status)'" }
        #expect(shown == ["1 1 'open'", "2 0 ''", "3 3 'open'"])
        #expect(errors.values.contains { "\($0)".contains("row 2 of 'orders' left the database") && "\($0)".contains("stand-in") }, "\(errors.values)")
        // The delete's entry is gone with the rest: the next commit's entries do not follow the
        // last one applied, and the result runs again.
        try sqlite3(path, "INSERT INTO orders (id, purchase_num, status) VALUES (4, 4, 'open')")
        await store.settle()
        #expect(open.map(\.id) == [1, 3, 4])
        store.close()
    }

    @Test func closingTheStoreCompletesChanges() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let recorder = store.results(Order.self).changes.record()
        store.close()
        guard case .completed? = recorder.events.last else {
            Issue.record("changes did not complete")
            return
        }
    }
}
