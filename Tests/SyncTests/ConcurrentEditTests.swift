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

        try a.store.execute("UPDATE orders SET status = 'paid on a' WHERE id = 1")
        try await Task.sleep(for: .milliseconds(3))
        try b.store.execute("UPDATE orders SET status = 'cancelled on b' WHERE id = 1")   // later: it stands
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()

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

    @Test("several changes on each side, apart: one listing per column, with each side's last value and the base from before both")
    func chainsListedOnce() async throws {
        let folder = TemporaryDirectory()
        let (_, a, b, syncA, syncB) = try await twoReplicas(folder)

        for text in ["a1", "a2", "a3"] { try a.store.execute("UPDATE orders SET status = ?, note = ? WHERE id = 1", arguments: [.text(text), .text("n" + text)]) }
        try await Task.sleep(for: .milliseconds(3))
        for text in ["b1", "b2"] { try b.store.execute("UPDATE orders SET status = ? WHERE id = 1", arguments: [.text(text)]) }
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()

        let onA = try edits(a), onB = try edits(b)
        #expect(onA.map(summary) == onB.map(summary))
        try #require(onA.count == 1, "\(onA.map(summary))")
        #expect(onA[0].base == .text("new"))
        #expect(onA[0].winner == .text("b2"))
        #expect(onA[0].loser == .text("a3"))
    }

    @Test("resolving on one replica: one journaled change, revertable, synced; the edit leaves every inbox, and a later replica never lists it", arguments: ["restoreLoser", "keepWinner", "value"])
    func resolvedEverywhere(how: String) async throws {
        let folder = TemporaryDirectory()
        let (url, a, b, syncA, syncB) = try await twoReplicas(folder)
        try a.store.execute("UPDATE orders SET status = 'paid on a' WHERE id = 1")
        try await Task.sleep(for: .milliseconds(3))
        try b.store.execute("UPDATE orders SET status = 'cancelled on b' WHERE id = 1")
        try await syncA.syncOnce(); try await syncB.syncOnce(); try await syncA.syncOnce()
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
}
#endif
