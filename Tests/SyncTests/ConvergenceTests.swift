#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import SignalsTesting
import Testing

@Suite("Sync: replicas converge", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct ConvergenceTests {
    @Test("writes by a model, store.execute and the sqlite3 shell reach the other replica; its live object sees each once")
    func everyWriterReachesTheOtherReplica() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)

        try a.store.insert(Order(id: 1, purchaseNum: 1, status: "new"))
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        let order = try #require(try b.store.find(Order.self, id: 1))
        let seen = order.signal(for: \.purchaseNum).record()

        // Each write synced on its own: B's object sees every value once, in order.
        try a.store.find(Order.self, id: 1)!.purchaseNum = 2                                     // a model
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try a.store.execute("UPDATE orders SET purchase_num = 3 WHERE id = 1")                 // the store
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try sqlite3(a.path, "UPDATE orders SET purchase_num = 4, status = 'paid' WHERE id = 1")  // a foreign writer
        try sqlite3(a.path, "INSERT INTO customers (id, name) VALUES (7, 'Ada')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(await eventuallyAsync { seen.values == [1, 2, 3, 4] }, "B's live object saw \(seen.values)")

        // Several writes in one downloaded batch are one local transaction: like any
        // transaction, it emits each changed property once, with its final value.
        for value in 5...9 { try sqlite3(a.path, "UPDATE orders SET purchase_num = \(value) WHERE id = 1") }
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(await eventuallyAsync { seen.values == [1, 2, 3, 4, 9] }, "B's live object saw \(seen.values)")
        #expect(order.status == "paid")
        #expect(try b.contents() == a.contents())
        // Applying is not uploading again: a second round moves nothing.
        #expect(try await syncB.syncOnce().uploaded == 0)
        #expect(try await syncA.syncOnce().downloaded == 0)
    }

    @Test("a running replica hears of another's upload by NOTIFY: polling once an hour, it gets each change long before a poll")
    func notifyWakesARunningReplica() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        // No poll comes within the test's timeouts: whatever arrives came by NOTIFY.
        let listening = SyncClient(store: b.store, url: try PostgresURL(url), pollInterval: .seconds(3_600))
        let statuses = listening.status.signal.record()
        let running = taskOnOwnThread { try await listening.run() }
        #expect(await eventuallyAsync { statuses.values.last == .idle }, "\(statuses.values)")

        for id in 1...3 {
            try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (\(id), \(id), 'rung')")
            try await a.client(url).syncOnce()
            #expect(try await eventuallyAsync(timeout: .seconds(10)) { try b.contents() == a.contents() }, "change \(id) did not arrive")
        }
        running.cancel()
        _ = await running.result
    }

    @Test("three replicas in three `signalstore sync` processes converge under writes on each, by the CLI")
    func threeProcessesConverge() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let replicas = try ["a", "b", "c"].map { try Replica(folder, $0) }
        let processes = try replicas.map { replica in
            try ChildProcess(signalstore, ["sync", "--json", "--postgres", url, "--db", replica.path])
        }
        defer { for process in processes { process.send(SIGINT); _ = process.waitForExit(timeout: 10) } }
        // Each process has made its replica and passed once before anything is written: rows
        // written before a replica's first sync go up as one insert each with their values then
        // (a snapshot), not as the writes that made them, and the counts below are of writes.
        for process in processes {
            let started = await eventuallyAsync(timeout: .seconds(60)) {
                jsonLines(process.output.value).contains { $0["type"] as? String == "progress" }
            }
            #expect(started, "no first pass: \(process.error.value)")
        }

        for (index, replica) in replicas.enumerated() {
            let base = Int64(index * 100)
            for id in base + 1...base + 5 {
                try sqlite3(replica.path, "INSERT INTO orders (id, purchase_num, status) VALUES (\(id), \(id), 'new')")
            }
            let set = try runProgram(signalstore, ["set", "orders", "\(base + 1)", "status=paid", "--db", replica.path])
            #expect(set.status == 0, "\(set.error)")
        }
        try sqlite3(replicas[0].path, "DELETE FROM orders WHERE id = 2")

        let converged = try await eventuallyAsync(timeout: .seconds(60)) {
            let contents = try replicas.map { try $0.contents() }
            return contents[0].count == 14 && contents.allSatisfy { $0 == contents[0] }
        }
        let counts = try replicas.map { try $0.contents().count }
        #expect(converged, "replicas differ: \(counts) rows")
        for replica in replicas {
            #expect(try replica.contents().filter { $0.contains("'paid'") }.count == 3)
        }
        // `--json`: one object per line. Once all is quiet, each process's last progress line
        // says what it moved: its own writes up (a: 5 inserts, 1 update, 1 delete), the others'
        // down, nothing waiting, nothing behind.
        for (index, process) in processes.enumerated() {
            let own = index == 0 ? 7 : 6
            let settled = await eventuallyAsync {
                let last = jsonLines(process.output.value).last { $0["type"] as? String == "progress" }
                // All four at once: a line printed before the last own write was noticed has
                // nothing pending and nothing behind too, and a loaded machine prints the next one
                // later.
                return last?["pending"] as? Int == 0 && last?["behind"] as? Int == 0 && last?["downloaded"] as? Int == 19 - own
                    && last?["uploaded"] as? Int == own
            }
            let last = jsonLines(process.output.value).last { $0["type"] as? String == "progress" }
            // Seen twice under load before the wait for each first pass above: A's process made
            // its replica after A's inserts and update, so it uploaded them as 5 snapshot
            // inserts and then the delete (6, not 7), and B and C downloaded 12.
            #expect(settled, "\(process.output.value)")
            #expect(last?["uploaded"] as? Int == own, "\(process.output.value)")
            for line in jsonLines(process.output.value) {
                #expect(["progress", "offline", "waiting"].contains(line["type"] as? String ?? ""), "\(line)")
            }
        }
        for process in processes {
            #expect(process.error.value.contains(TestServer.password) == false || TestServer.password.isEmpty)
            #expect(process.output.value.contains(TestServer.password) == false || TestServer.password.isEmpty)
        }
    }

    @Test("a new replica bootstraps from the server's log, and rows that existed before a replica's first sync are uploaded")
    func bootstrapAndExistingRows() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a")
        // Rows written before sync was ever set up, with the journal pruned since.
        for id in 1...50 { try a.store.insert(Order(id: Int64(id), purchaseNum: id, status: "old")) }
        try a.store.pruneChanges(through: try a.store.lastChangeSeq)
        try await a.client(url).syncOnce()

        let fresh = try Replica(folder, "fresh")
        let progress = try await fresh.client(url).syncOnce()
        #expect(progress.downloaded == 50)
        #expect(try fresh.contents() == a.contents())
    }
}

/// The objects of `signalstore sync --json` output, one per line; a line that is not a JSON
/// object fails the test.
private func jsonLines(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    output.split(separator: "\n").compactMap { line in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        if object == nil { Issue.record("not a JSON object: \(line)", sourceLocation: sourceLocation) }
        return object
    }
}
#endif
