import Dispatch
import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

@Suite("Change feed")
struct ChangeFeedTests {
    private func insertOrder(_ store: Store, _ id: Int64) throws {
        try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, 0, 'open')", arguments: [.integer(id)])
    }

    @Test("changes(since:) replays, then delivers live entries", arguments: StoreKind.allCases)
    func replayThenLive(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        try insertOrder(store, 1)
        try insertOrder(store, 2)
        let fromStart = store.changes(since: 0).record()
        let fromOne = store.changes(since: 1).record()
        let liveOnly = store.changes().record()
        #expect(fromStart.values.map(\.seq) == [1, 2])
        #expect(fromOne.values.map(\.seq) == [2])
        #expect(liveOnly.values.isEmpty)
        try insertOrder(store, 3)
        // Delivered synchronously to the writer: no waiting needed.
        #expect(fromStart.values.map(\.seq) == [1, 2, 3])
        #expect(fromOne.values.map(\.seq) == [2, 3])
        #expect(liveOnly.values.map(\.seq) == [3])
    }

    @Test("a page of entries read with its values cut by SQLite holds each value's first code points (bytes of a blob), and every other field exactly")
    func entriesWithValuesCutBySQLite() throws {
        let (store, folder) = try makeStore(.file)
        defer { withExtendedLifetime(folder) {} }
        let long = String(repeating: "é", count: 300) + String(repeating: "x", count: 1_000_000)
        let accents = String(repeating: "e\u{301}", count: 400)   // two code points a character
        try store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (1, 1, 'open', ?)", arguments: [.text(long)])
        try store.execute("UPDATE orders SET note = ?, purchase_num = 2.0000000000000004 WHERE id = 1", arguments: [.text(accents)])
        try store.execute("UPDATE orders SET note = ? WHERE id = 1", arguments: [.blob(Data(repeating: 0xAB, count: 100_000))])
        try store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (2, 1e300, 'short', x'00ff')")
        try store.execute("DELETE FROM orders WHERE id = 1")
        let limit = 20
        let whole = try store.journalEntries(through: .max, limit: 100)
        let cut = try store.journalEntries(through: .max, limit: 100, valuesCutAt: limit)
        func cutValue(_ value: SQLiteValue?) -> SQLiteValue? {
            switch value {
            case .text(let text)?: .text(String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))))
            case .blob(let bytes)?: .blob(Data(bytes.prefix(limit)))
            default: value
            }
        }
        func cutRow(_ row: [String: SQLiteValue]?) -> [String: SQLiteValue]? {
            row?.mapValues { value in
                // A blob in a whole row is hex: cut at twice as many digits.
                if case .blob(let bytes) = value { return .blob(Data(bytes.prefix(limit))) }
                return cutValue(value) ?? value
            }
        }
        #expect(cut.count == whole.count && whole.count >= 6)
        for (cut, whole) in zip(cut, whole) {
            #expect(cut.seq == whole.seq && cut.table == whole.table && cut.rowID == whole.rowID && cut.operation == whole.operation)
            #expect(cut.column == whole.column && cut.timestamp == whole.timestamp)
            if whole.operation == .update {
                #expect(cut.oldValue == cutValue(whole.oldValue) && cut.newValue == cutValue(whole.newValue), "#\(whole.seq)")
            } else {
                #expect(cut.row == cutRow(whole.row), "#\(whole.seq)")
            }
        }
    }

    @Test("entries written while nobody listens are not delivered as live later", arguments: StoreKind.allCases)
    func writesWithoutSubscribersAreNotLive(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        try insertOrder(store, 1)
        let first = store.changes().record()
        first.subscription.dispose()
        try insertOrder(store, 2)
        try insertOrder(store, 3)
        let live = store.changes().record()
        try insertOrder(store, 4)
        #expect(live.values.map(\.seq) == [4])
        #expect(store.changes(since: 0).record().values.map(\.seq) == [1, 2, 3, 4])
    }

    @Test("no gap and no duplicate while writers race the subscription", arguments: StoreKind.allCases)
    func subscriptionRacingWrites(kind: StoreKind) throws {
        let (store, folder) = try makeStore(kind)
        defer { withExtendedLifetime(folder) {} }
        let total = 300
        let recorders = Locked<[Recorder<Change, StoreError>]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            switch worker {
            case 0, 1:
                for n in 0..<total / 2 { try! insertOrder(store, Int64(worker * 10_000 + n)) }
            default:
                for n in 0..<60 {
                    recorders.withLock { $0.append(store.changes(since: n.isMultiple(of: 2) ? 0 : nil).record()) }
                }
            }
        }
        for (offset, recorder) in recorders.withLock({ $0 }).enumerated() {
            let seqs = recorder.values.map(\.seq)
            if offset.isMultiple(of: 2) {
                #expect(seqs == Array(1...Int64(total)), "from 0: \(seqs.prefix(5))…")
            } else if let first = seqs.first {
                #expect(seqs == Array(first...Int64(total)), "live: gap or duplicate in \(seqs.prefix(5))…")
            }
        }
    }

    @Test func aSubscriberThatWritesFromItsCallbackSeesItsChangeNextNotNested() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let log = Locked<[String]>([])
        store.changes().subscribe(onValue: { change in
            log.withLock { $0.append("start \(change.seq)") }
            if change.seq == 1 { _ = try? store.execute("UPDATE orders SET purchase_num = 5 WHERE id = 1") }
            log.withLock { $0.append("end \(change.seq)") }
        })
        try insertOrder(store, 1)
        #expect(log.withLock { $0 } == ["start 1", "end 1", "start 2", "end 2"])
    }

    @Test func pruneThenResumingBeforeTheHorizonIsAGap() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for id in 1...5 { try insertOrder(store, Int64(id)) }
        try store.pruneChanges(through: 3)
        let early = store.changes(since: 2).record()
        #expect(early.events == [.failed(.changeFeedGap(since: 2, prunedThrough: 3))])
        #expect(early.failure?.description.contains("pruned") == true)
        #expect(store.changes(since: 3).record().values.map(\.seq) == [4, 5])
        try store.pruneChanges(through: 5)
        #expect(try store.lastChangeSeq == 5)
        try insertOrder(store, 6)
        #expect(try store.lastChangeSeq == 6, "seq numbers are never reused after pruning")
        #expect(store.changes(since: 5).record().values.map(\.seq) == [6])
        try store.pruneChanges(through: 1)   // an older horizon does not move it back
        #expect(store.changes(since: 4).record().failure == .changeFeedGap(since: 4, prunedThrough: 5))
    }

    @Test func pruningPastTheLastSeqStopsAtItAndCountsWhatItDeleted() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        for id in 1...3 { try insertOrder(store, Int64(id)) }
        #expect(try store.pruneChanges(through: 1) == 1)
        #expect(try store.pruneChanges(through: 1_000) == 2)
        try insertOrder(store, 4)
        // Seq 4 was written after the prune: it is not behind the horizon.
        #expect(store.changes(since: 3).record().values.map(\.seq) == [4])
    }

    @Test func closingCompletesTheFeedAndLaterCallsSayClosed() throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("db.sqlite"), migrations: packageMigrations)
        let recorder = store.changes(since: 0).record()
        #expect(store.isPolling)
        store.close()
        store.close()
        #expect(!store.isPolling)
        #expect(recorder.events == [.completed])
        #expect(store.isClosed)
        #expect(throws: StoreError.closed) { try store.execute("DELETE FROM orders") }
        #expect(store.changes().record().failure == .closed)
    }

    @Test func inMemoryStoresDoNotPoll() throws {
        #expect(try !Store.inMemory(migrations: packageMigrations).isPolling)
    }

    @Test func aFailedWriteRollsBackAndPublishesNothing() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let recorder = store.changes().record()
        #expect(throws: StoreError.self) {
            try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 0, 'open'); INSERT INTO orders (id, purchase_num, status) VALUES (2, -1, 'open')")
        }
        #expect(recorder.events.isEmpty)
        #expect(try rows(store, "SELECT count(*) FROM orders") == [[.integer(0)]])
        #expect(try store.lastChangeSeq == 0)
    }

    @Test func changesFromAnotherConnectionInThisProcessArriveByPolling() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let store = try Store(path: path, migrations: packageMigrations)
        let recorder = store.changes().record()
        let other = try Connection(path: path)
        try other.execute("INSERT INTO orders (id, purchase_num, status) VALUES (9, 1, 'open')")
        #expect(await recorder.events(count: 1))
        #expect(recorder.values.first?.rowID == 9)
        store.close()
    }
}

/// A real in a row's JSON prints in one form, whatever SQLite wrote.
@Suite struct ChangeDescriptionTests {
    @Test func aRealPrintsInItsShortestRoundTripForm() throws {
        let store = try Store.inMemory(migrations: packageMigrations)
        let recorder = store.changes(since: 0).record()
        // 0.1 + 0.2 does not round-trip in 15 digits: SQLite writes it with 20.
        try store.execute("INSERT INTO orders (id, purchase_num, status, created_at, updated_at) VALUES (1, 1, 'open', 1795634443.93301, 0.1 + 0.2)")
        let insert = try #require(recorder.values.last)
        #expect(insert.description.contains("\"created_at\":1795634443.93301"), "\(insert.description)")
        #expect(insert.description.contains("\"updated_at\":0.30000000000000004"), "\(insert.description)")
        #expect(insert.row?["updated_at"] == .real(0.1 + 0.2))
        store.close()
    }
}
