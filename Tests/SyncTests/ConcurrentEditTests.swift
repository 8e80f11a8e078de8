#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// The conflict inbox: a column changed on two replicas apart is listed on every replica, with
/// base, winner and loser, until one replica resolves it.
@Suite("Sync: concurrent edits are listed alike on every replica, and resolved once for all", .enabled(if: TestServer.isEnabled), .ownThread)
struct ConcurrentEditTests {
    /// Two replicas on a fresh log that both hold order 1 (`purchaseNum` 1, status `new`).
    private func twoReplicas(_ folder: TemporaryDirectory) async throws -> (url: String, a: Replica, b: Replica, syncA: SyncClient, syncB: SyncClient) {
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try a.store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (1, 1, 'new', 'first')")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        return (url, a, b, syncA, syncB)
    }

    /// Writes `first` on A and then `second` on B while they are apart, B's in a later
    /// millisecond of the clock, so they stand; then syncs A, B and A again.
    private func apart(_ syncA: SyncClient, _ syncB: SyncClient, _ first: () throws -> Void, then second: () throws -> Void) async throws {
        try first()
        await laterMillisecond()
        try second()
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()
    }

    /// Returns once the wall clock has moved two milliseconds on: a write after it is stamped later
    /// than one before (the stamp's physical part is the journal's millisecond).
    private func laterMillisecond() async {
        let start = Date().timeIntervalSince1970 * 1000
        while Date().timeIntervalSince1970 * 1000 < start.rounded(.down) + 2 { await Task.yield() }
    }

    private func edits(_ replica: Replica) throws -> [SyncConflict] {
        try SyncClient.conflicts(in: replica.store).filter { $0.kind == .concurrentEdit }
    }

    /// What a listing says, the same on every replica (whether the loser was local aside).
    private func summary(_ conflict: SyncConflict) -> String {
        "#\(conflict.id) \(conflict.table).\(conflict.column ?? "?") \(conflict.key): base \(conflict.base?.description ?? "-"), winner \(conflict.winner?.description ?? "-"), loser \(conflict.loser?.description ?? "-")"
    }

    @Test("one column changed on two replicas apart: both list one edit, with the same id, base, winner and loser; so does a replica that joins after compaction")
    func listedAlike() async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)

        try await apart(syncA, syncB) { try a.store.execute("UPDATE orders SET status = 'paid on a' WHERE id = 1") } then: { try b.store.execute("UPDATE orders SET status = 'cancelled on b' WHERE id = 1") }   // b's is later: it stands

        #expect(try a.contents() == b.contents())
        let onA = try edits(a), onB = try edits(b)
        try #require(onA.count == 1, "\(onA)")
        let edit = onA[0]
        #expect(edit.base == .text("new"))
        #expect(edit.winner == .text("cancelled on b"))
        #expect(edit.loser == .text("paid on a"))
        #expect(edit.column == "status" && edit.table == "orders" && edit.key == [.integer(1)])
        #expect(edit.isLocal, "a made the change that lost")
        #expect(edit.losingEdit?.origin == edit.origin && edit.winningEdit?.origin != edit.origin)
        #expect(edit.winningEdit?.uploadedBy != nil && edit.losingEdit?.uploadedBy != nil)
        let stampedAt = try #require(edit.losingEdit?.stampedAt)
        #expect(abs(stampedAt.timeIntervalSinceNow) < 60)
        #expect(onB.map(summary) == onA.map(summary))
        #expect(onB.first?.isLocal == false)
        #expect(syncA.conflicts.value.contains { $0.id == edit.id && $0.kind == .concurrentEdit })

        _ = try await syncA.compactServerLog()
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try edits(late).map(summary) == onA.map(summary))
        #expect(try late.contents() == a.contents())
    }

    @Test("a delete against concurrent updates of two columns, whichever uploads first: the delete stands, and each column's update it swallowed is listed on both replicas and on one that joins later; keeping the winner settles each", arguments: [false, true])
    func deleteAgainstUpdates(deleteUploadsFirst: Bool) async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try a.store.execute("DELETE FROM orders WHERE id = 1")
        try b.store.execute("UPDATE orders SET note = 'gift wrap' WHERE id = 1")
        try b.store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")
        let order = deleteUploadsFirst ? [syncA, syncB, syncA] : [syncB, syncA, syncB]
        for client in order { try await client.syncOnce() }

        #expect(try a.contents().isEmpty && b.contents().isEmpty, "the delete stands")
        let onA = try edits(a), onB = try edits(b)
        try #require(onA.count == 2, "\(onA.map(summary))")
        #expect(onA.map(summary) == onB.map(summary))
        let byColumn = Dictionary(uniqueKeysWithValues: onA.map { ($0.column ?? "?", $0) })
        let note = try #require(byColumn["note"]), status = try #require(byColumn["status"])
        #expect(note.base == .text("first") && note.loser == .text("gift wrap") && note.winner == nil)
        #expect(status.base == .text("new") && status.loser == .text("paid") && status.winner == nil)
        for edit in onA {
            #expect(edit.winningEdit?.deletesRow == true && edit.losingEdit?.deletesRow == false)
            #expect(edit.winningEdit?.origin != nil && edit.winningEdit?.origin != edit.losingEdit?.origin)
            #expect(edit.description.contains("winner (the row deleted)"), "\(edit.description)")
        }
        #expect(!note.isLocal && onB.allSatisfy(\.isLocal), "b's updates were swallowed")
        let early = try Replica(folder, "early")
        try await early.client(url).syncOnce()
        #expect(try edits(early).map(summary) == onA.map(summary), "a replica that joins later lists the same")

        #expect(throws: SyncError.self) { try syncB.resolve(note, with: .restoreLoser) }
        // The later update's listing first: the other one stays listed everywhere, on a
        // replica that joins now too.
        try syncB.resolve(status, with: .keepWinner)
        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try edits(a).map(summary) == [summary(note)] && edits(b).map(summary) == [summary(note)])
        let between = try Replica(folder, "between")
        try await between.client(url).syncOnce()
        #expect(try edits(between).map(summary) == [summary(note)])
        try syncA.resolve(note, with: .keepWinner)
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(try edits(a).isEmpty && edits(b).isEmpty)
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try edits(late).isEmpty && late.contents().isEmpty)
    }

    @Test("changes that did not overlap are never listed: one after the other, and other columns of the same row at once")
    func nothingListedWithoutOverlap() async throws {
        let folder = TemporaryDirectory()
        let (_, a, b, syncA, syncB) = try await twoReplicas(folder)

        try a.store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try b.store.execute("UPDATE orders SET status = 'shipped' WHERE id = 1")   // b had seen a's
        try await syncB.syncOnce(); try await syncA.syncOnce()

        try a.store.execute("UPDATE orders SET note = 'gift' WHERE id = 1")         // apart, other columns
        try b.store.execute("UPDATE orders SET purchase_num = 7 WHERE id = 1")
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()

        #expect(try edits(a).isEmpty)
        #expect(try edits(b).isEmpty)
        #expect(try a.contents() == b.contents())
    }

    @Test("a delete against concurrent updates of a silent column and a listed one: only the listed column's update is listed, even when the silent one is the later")
    func deleteAgainstASilentAndAListedColumn() async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await SyncClient.setPolicy(.silent, table: "orders", column: "status", on: try PostgresURL(url))
        try a.store.execute("DELETE FROM orders WHERE id = 1")
        try b.store.execute("UPDATE orders SET note = 'gift wrap' WHERE id = 1")
        try b.store.execute("UPDATE orders SET status = 'paid' WHERE id = 1")   // the latest, and silent
        for client in [syncB, syncA, syncB] { try await client.syncOnce() }

        let onA = try edits(a), onB = try edits(b)
        #expect(onA.map(\.column) == ["note"], "\(onA.map(summary))")
        #expect(onB.map(summary) == onA.map(summary))
        #expect(onA.first?.loser == .text("gift wrap"))
    }

    @Test("three replicas change one column apart: each value that lost is listed once, the same on every replica, whatever order they upload in", arguments: [[0, 1, 2], [2, 0, 1], [1, 2, 0]])
    func threeReplicasEachLoserListedOnce(uploadOrder: [Int]) async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        let c = try Replica(folder, "c")
        let syncC = try c.client(url)
        try await syncC.syncOnce()
        // Stamped a, then b, then c: c's value stands.
        try a.store.execute("UPDATE orders SET status = 'on a' WHERE id = 1")
        await laterMillisecond()
        try b.store.execute("UPDATE orders SET status = 'on b' WHERE id = 1")
        await laterMillisecond()
        try c.store.execute("UPDATE orders SET status = 'on c' WHERE id = 1")
        let clients = [syncA, syncB, syncC]
        for index in uploadOrder { try await clients[index].syncOnce() }
        for client in clients { try await client.syncOnce() }

        let replicas = [a, b, c]
        #expect(Set(try replicas.map { try $0.contents() }).count == 1)
        #expect(try sqlite3(a.path, "SELECT status FROM orders WHERE id = 1").trimmingCharacters(in: .whitespacesAndNewlines) == "on c")
        let listed = try replicas.map { try edits($0).map(summary) }
        #expect(listed[1] == listed[0] && listed[2] == listed[0], "\(listed)")
        let onA = try edits(a)
        #expect(onA.compactMap(\.loser).sorted { $0.description < $1.description } == [.text("on a"), .text("on b")], "\(onA.map(summary))")
        #expect(onA.allSatisfy { $0.base == .text("new") && $0.column == "status" })
    }

    @Test("several changes on each side, apart: one listing per column, with each side's last value and the base from before both")
    func chainsListedOnce() async throws {
        let folder = TemporaryDirectory()
        let (_, a, b, syncA, syncB) = try await twoReplicas(folder)

        try await apart(syncA, syncB) {
            for text in ["a1", "a2", "a3"] { try a.store.execute("UPDATE orders SET status = ?, note = ? WHERE id = 1", arguments: [.text(text), .text("n" + text)]) }
        } then: {
            for text in ["b1", "b2"] { try b.store.execute("UPDATE orders SET status = ? WHERE id = 1", arguments: [.text(text)]) }
        }

        let onA = try edits(a), onB = try edits(b)
        #expect(onA.map(summary) == onB.map(summary))
        try #require(onA.count == 1, "\(onA.map(summary))")
        #expect(onA[0].base == .text("new"))
        #expect(onA[0].winner == .text("b2"))
        #expect(onA[0].loser == .text("a3"))
    }

    @Test("one row inserted on two replicas apart with two columns set differently: each column is listed once, alike on both and on a late joiner, with no base; resolving each, one by its derived id from the command line, empties every inbox")
    func concurrentInsertsListEachDifferingColumn() async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await apart(syncA, syncB) {
            try a.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'open', 'from a', 1.5)")
        } then: {
            try b.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'closed', 'from b', 1.5)")   // later: it stands
        }
        #expect(try a.contents() == b.contents())
        let onA = try edits(a), onB = try edits(b)
        try #require(onA.count == 2, "purchase_num and created_at were set alike and are not listed: \(onA)")
        #expect(onA.map(\.column) == ["note", "status"])
        #expect(onA.map(\.winner) == [.text("from b"), .text("closed")])
        #expect(onA.map(\.loser) == [.text("from a"), .text("open")])
        #expect(onA.allSatisfy { $0.base == nil && $0.operation == .insert && $0.key == [.integer(2)] && $0.isLocal })
        #expect(onA[0].id == onA[0].position && onA[0].id < 9_000_000_000_000_000_000, "the first column is listed under the insert's position")
        #expect(onA[1].id > 9_000_000_000_000_000_000, "a further column's id is derived from it")
        #expect(onA[0].description.contains("insert of note into orders [2]") && onA[0].description.contains("base (the row was new)"))
        #expect(onB.map(summary) == onA.map(summary))
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try edits(late).map(summary) == onA.map(summary))

        let listed = try runProgram(signalstore, ["sync", "conflicts", "--db", a.path])
        let row = try #require(listed.output.split(separator: "\n").first { $0.hasPrefix(String(onA[1].id)) }, "\(listed.output)")
        for part in ["orders 2", "status", "(new row)", "closed", "open"] { #expect(row.contains(part), "\(row)") }
        let resolved = try runProgram(signalstore, ["sync", "resolve", String(onA[1].id), "--keep", "loser", "--db", a.path])
        #expect(resolved.status == 0, "\(resolved.error)")
        #expect(try a.store.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 2") } == .text("open"))
        #expect(try edits(a).map(\.id) == [onA[0].id])
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(try edits(b).map(\.id) == [onA[0].id], "the resolution of the derived id synced")
        try syncB.resolve(onB[0], with: .keepWinner)
        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try edits(a).isEmpty && edits(b).isEmpty)
        #expect(try a.contents() == b.contents())
        let later = try Replica(folder, "later")
        try await later.client(url).syncOnce()
        #expect(try edits(later).isEmpty)
        #expect(try later.contents() == a.contents())
    }

    @Test("one row inserted on two replicas apart, differing in a silent column and a listed one: only the listed column is listed, under the insert's own position")
    func concurrentInsertsLeaveSilentColumnsOut() async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await SyncClient.setPolicy(.silent, table: "orders", column: "note", on: try PostgresURL(url))
        try await apart(syncA, syncB) {
            try a.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'open', 'from a', 1.5)")
        } then: {
            try b.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'closed', 'from b', 1.5)")
        }
        let onA = try edits(a), onB = try edits(b)
        #expect(onA.map(\.column) == ["status"], "\(onA.map(summary))")
        #expect(onA.first.map { $0.id == $0.position } == true, "no further column, so no derived id")
        #expect(onB.map(summary) == onA.map(summary))
        #expect(try a.contents() == b.contents())
    }

    @Test("inserts of one row that are not concurrent edits are never listed: the same values on both replicas, and one made after seeing the other's insert and delete")
    func insertsThatDidNotOverlapAreNotListed() async throws {
        let folder = TemporaryDirectory()
        let (_, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await apart(syncA, syncB) {
            try a.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'open', 'same', 1.5)")
        } then: {
            try b.store.execute("INSERT INTO orders (id, purchase_num, status, note, created_at) VALUES (2, 5, 'open', 'same', 1.5)")
        }
        try a.store.execute("DELETE FROM orders WHERE id = 2")
        try await syncA.syncOnce(); try await syncB.syncOnce()
        try b.store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (2, 6, 'closed', 'after the delete')")
        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try a.contents() == b.contents())
        #expect(try edits(a).isEmpty && edits(b).isEmpty)
    }

    @Test("resolving on one replica: one journaled change, revertable, synced; the edit leaves every inbox, and a later replica never lists it", arguments: ["restoreLoser", "keepWinner", "value"])
    func resolvedEverywhere(how: String) async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await apart(syncA, syncB) { try a.store.execute("UPDATE orders SET status = 'paid on a' WHERE id = 1") } then: { try b.store.execute("UPDATE orders SET status = 'cancelled on b' WHERE id = 1") }   // b's is later: it stands
        let edit = try #require(try edits(b).first)

        let resolution: SyncConflict.Resolution = switch how {
        case "restoreLoser": .restoreLoser
        case "keepWinner": .keepWinner
        default: .value(.text("paid, then cancelled"))
        }
        let expected = switch how {
        case "restoreLoser": "paid on a"
        case "keepWinner": "cancelled on b"
        default: "paid, then cancelled"
        }
        let mark = try b.store.lastChangeSeq
        try syncB.resolve(edit, with: resolution)
        #expect(try edits(b).isEmpty)
        #expect(!syncB.conflicts.value.contains { $0.kind == .concurrentEdit })
        let written = try b.store.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 1") }
        #expect(written == .text(expected))
        let journaled = try b.store.lastChangeSeq - mark
        #expect(journaled == (how == "keepWinner" ? 0 : 1))

        // Resolving it again, here or on the other replica once it knows, is an error.
        #expect(throws: SyncError.self) { try syncB.resolve(edit, with: .keepWinner) }

        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try edits(a).isEmpty, "the resolution synced")
        #expect(try a.contents() == b.contents())
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try edits(late).isEmpty)
        #expect(try late.contents() == a.contents())

        if how != "keepWinner" {
            try b.store.revert(after: mark)
            #expect(try b.store.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 1") } == .text("cancelled on b"))
            try await syncB.syncOnce(); try await syncA.syncOnce()
            #expect(try a.contents() == b.contents())
            #expect(try edits(a).isEmpty && edits(b).isEmpty)
        }
    }

    @Test("from the command line: a silent column is never listed; `sync conflicts` shows base, winner and loser side by side and as JSON; `sync resolve` settles an edit by id for every replica")
    func fromTheCommandLine() async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        let policy = try runProgram(signalstore, ["sync", "policy", "--postgres", url, "orders.note", "--silent"])
        #expect(policy.status == 0, "\(policy.error)")
        #expect(policy.output == "last writer wins silently for orders.note, on every replica, from the next upload\n")

        try await apart(syncA, syncB) { try a.store.execute("UPDATE orders SET status = 'paid on a', note = 'from a' WHERE id = 1") } then: { try b.store.execute("UPDATE orders SET status = 'cancelled on b', note = 'from b' WHERE id = 1") }   // b's is later: it stands

        let listed = try runProgram(signalstore, ["sync", "conflicts", "--db", a.path])
        #expect(listed.status == 0, "\(listed.error)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "concurrent edits (the same on every replica; the winner stands):", "\(listed.output)")
        #expect(lines.count == 4, "a header, one edit, and how to settle it: \(listed.output)")
        let row = try #require(lines.first { $0.contains("status") })
        for part in ["orders 1", "new", "cancelled on b", "paid on a", "this replica"] { #expect(row.contains(part), "\(row)") }
        #expect(lines.last == "settle one for every replica with `signalstore sync resolve ID --keep winner|loser` or `--value VALUE`")

        let json = try runProgram(signalstore, ["sync", "conflicts", "--json", "--db", b.path])
        let objects = try json.output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        try #require(objects.count == 1, "\(json.output)")
        let edit = objects[0]
        #expect(edit["kind"] as? String == "concurrentEdit" && edit["column"] as? String == "status")
        #expect(edit["base"] as? String == "new" && edit["winner"] as? String == "cancelled on b" && edit["loser"] as? String == "paid on a")
        #expect((edit["winningEdit"] as? [String: Any])?["origin"] as? String != nil && (edit["losingEdit"] as? [String: Any])?["uploadedBy"] as? String != nil)
        let id = try #require(edit["id"] as? Int)

        let unsaid = try runProgram(signalstore, ["sync", "resolve", String(id), "--db", b.path])
        #expect(unsaid.status != 0 && unsaid.error.contains("--keep winner, --keep loser, or --value VALUE"), "\(unsaid.error)")
        let unknown = try runProgram(signalstore, ["sync", "resolve", "999999", "--keep", "loser", "--db", b.path])
        #expect(unknown.status != 0 && unknown.error.contains("no concurrent edit #999999"), "\(unknown.error)")
        #expect(unknown.error.split(separator: "\n").count == 1)
        let resolved = try runProgram(signalstore, ["sync", "resolve", String(id), "--keep", "loser", "--db", b.path])
        #expect(resolved.status == 0, "\(resolved.error)")
        #expect(resolved.output.hasPrefix("resolved concurrent edit #\(id)"))

        try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try a.store.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 1") } == .text("paid on a"))
        #expect(try runProgram(signalstore, ["sync", "conflicts", "--db", a.path]).output == "no conflicts\n")
        #expect(try a.contents() == b.contents())
    }

    @Test("offline for a while: 10,000 edits on each of two replicas over 2,000 rows, 20% of them on the same columns; every overlapping column is listed once on both, with its base, winner and loser, nothing else is; a late joiner lists the same; 1,000 resolutions of mixed kinds on each side empty every inbox")
    func offlineMerge() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        let rows = 2_000
        try a.store.transaction {
            for id in 1...rows { try a.store.execute("INSERT INTO orders (id, purchase_num, status, note) VALUES (?, 0, 'new', '')", arguments: [.integer(Int64(id))]) }
        }
        try await syncA.syncOnce(); try await syncB.syncOnce()

        // Apart: per row, one edit of status on each side (20% of the edits, all overlapping),
        // and four edits of a column only that side changes.
        try a.store.transaction {
            for id in 1...rows {
                try a.store.execute("UPDATE orders SET status = ? WHERE id = ?", arguments: [.text("a\(id)"), .integer(Int64(id))])
                for edit in 1...4 { try a.store.execute("UPDATE orders SET note = ? WHERE id = ?", arguments: [.text("note \(edit)"), .integer(Int64(id))]) }
            }
        }
        await laterMillisecond()
        try b.store.transaction {
            for id in 1...rows {
                try b.store.execute("UPDATE orders SET status = ? WHERE id = ?", arguments: [.text("b\(id)"), .integer(Int64(id))])
                for edit in 1...4 { try b.store.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", arguments: [.integer(Int64(edit)), .integer(Int64(id))]) }
            }
        }
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()
        #expect(try a.contents() == b.contents())

        let onA = try edits(a), onB = try edits(b)
        #expect(onA.count == rows, "one listing per overlapping column")
        #expect(onA.map(summary) == onB.map(summary))
        let expected = (1...rows).map { id in "orders.status [\(id)]: base 'new', winner 'b\(id)', loser 'a\(id)'" }
        #expect(onA.map { "\($0.table).\($0.column ?? "?") \($0.key): base \($0.base?.description ?? "-"), winner \($0.winner?.description ?? "-"), loser \($0.loser?.description ?? "-")" }.sorted() == expected.sorted())
        #expect(onA.allSatisfy(\.isLocal) && !onB.contains(where: \.isLocal))
        let late = try Replica(folder, "late")
        try await late.client(url).syncOnce()
        #expect(try edits(late).map(summary) == onA.map(summary))

        // Resolved half on each side, mixed kinds; timed on one side, in this thread's CPU time
        // (the resolutions run on it), which the suites running beside it do not stretch.
        let choices: [SyncConflict.Resolution] = [.keepWinner, .restoreLoser, .value(.text("merged"))]
        let took = try threadCPUTime {
            for (index, choice) in choices.enumerated() {
                try syncA.resolveAll(onA.prefix(rows / 2).enumerated().filter { $0.offset % 3 == index }.map(\.element), with: choice)
            }
        }
        print("1,000 resolutions of concurrent edits, in three calls: \(took) of CPU")
        #expect(took < .seconds(isSanitized ? 10 : 1), "\(took) of CPU")
        let resolvedOnA = try a.store.lastChangeSeq
        #expect(try a.store.revert(resolvedOnA...resolvedOnA).count == 1)   // each resolution is a change of its own
        #expect(try a.store.revert(after: resolvedOnA).count == 1)
        for (index, edit) in onB.suffix(rows / 2).enumerated() { try syncB.resolve(edit, with: choices[index % 3]) }
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce(); try await late.client(url).syncOnce()
        for replica in [a, b, late] { #expect(try edits(replica).isEmpty, "\(replica.path)") }
        #expect(try a.contents() == b.contents())
        #expect(try late.contents() == a.contents())
        #expect(try a.store.readConnection { try $0.scalar("SELECT count(*) FROM orders WHERE status = 'merged'") } == .integer(Int64(2 * (0..<rows / 2).filter { $0 % 3 == 2 }.count)))
    }

    #if SIGNALSTORE_INSPECTOR
    @Test("the inspector's inbox shows base, winner and loser; its button resolves the edit for every replica, and a post without the page's token is refused")
    func inspectorInbox() async throws {
        let folder = TemporaryDirectory()
        let (_, a, b, syncA, syncB) = try await twoReplicas(folder)
        try await apart(syncA, syncB) { try a.store.execute("UPDATE orders SET status = 'paid <b>on</b> a' WHERE id = 1") } then: { try b.store.execute("UPDATE orders SET status = 'cancelled on b' WHERE id = 1") }   // b's is later: it stands
        let edit = try #require(try edits(a).first)

        let inspector = try ChildProcess(signalstore, ["inspect", "--db", a.path, "--allow-writes"])
        defer { inspector.send(SIGINT); _ = inspector.waitForExit(timeout: 10) }
        _ = inspector.output.wait(timeout: 20) { $0.contains("?token=") && $0.hasSuffix("\n") }
        let printed = inspector.output.value
        let start = try #require(printed.range(of: "http://127.0.0.1:"), "inspect printed no URL: \(inspector.error.value)")
        let address = String(printed[start.lowerBound...].prefix { !$0.isWhitespace })
        let port = String(address.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber })
        let token = String(address.suffix(64))
        let cookie = "signalstore_inspector_\(port)=\(token)"
        let base = "http://127.0.0.1:\(port)"

        let page = try Self.http(base + "/conflicts", cookie: cookie)
        #expect(page.status == 200)
        for part in ["id=\"edit-\(edit.id)\"", "new", "cancelled on b", "paid &lt;b&gt;on&lt;/b&gt; a", "Keep winner", "Restore loser"] {
            #expect(page.body.contains(part), "\(part) in \(page.body)")
        }
        let forged = try Self.http(base + "/conflicts/resolve", cookie: cookie, form: "id=\(edit.id)&keep=loser")
        #expect(forged.status == 403)
        let resolved = try Self.http(base + "/conflicts/resolve", cookie: cookie, form: "id=\(edit.id)&keep=loser&token=\(token)")
        #expect(resolved.status == 200 && resolved.body.contains("Resolved concurrent edit #\(edit.id)"), "\(resolved.body)")
        #expect(try a.store.readConnection { try $0.scalar("SELECT status FROM orders WHERE id = 1") } == .text("paid <b>on</b> a"))
        let again = try Self.http(base + "/conflicts/resolve", cookie: cookie, form: "id=\(edit.id)&keep=loser&token=\(token)")
        #expect(again.status == 409 && again.body.contains("no concurrent edit #\(edit.id)"))
        try await syncA.syncOnce(); try await syncB.syncOnce()
        #expect(try edits(b).isEmpty)
        #expect(try a.contents() == b.contents())
    }

    /// A GET (or, with `form`, a POST) by Python's `urllib`, as a browser holding the cookie
    /// sends it: the status and the body.
    private static func http(_ url: String, cookie: String, form: String? = nil) throws -> (status: Int, body: String) {
        let script = """
            import sys, urllib.request, urllib.error
            data = sys.argv[3].encode() if len(sys.argv) > 3 else None
            request = urllib.request.Request(sys.argv[1], data=data, headers={"Cookie": sys.argv[2]})
            try:
                reply = urllib.request.urlopen(request, timeout=10)
                status, body = reply.status, reply.read()
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read()
            sys.stdout.write(str(status) + "\\n" + body.decode())
            """
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, url, cookie] + (form.map { [$0] } ?? []))
        try #require(result.status == 0, "python3: \(result.error)")
        let lines = result.output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (Int(lines[0]) ?? 0, lines.count > 1 ? String(lines[1]) : "")
    }
    #endif
}
#endif
