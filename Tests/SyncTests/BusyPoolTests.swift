#if SIGNALSTORE_SYNC
import Foundation
import Signals
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// An app whose own tasks keep the concurrency runtime's cooperative pool busy must not starve
/// sync: a round's deadline counts from PostgreSQL's last answer, so a round that waits for a
/// pool thread after each answer looks like a dead link. Seen in the test suite's first seconds
/// on 2 cores, when hundreds of tests start at once: four connects went 8 s without resuming
/// and failed with "did not answer for 8.0 s".
@Suite("Sync: a busy cooperative pool does not stall sync", .enabled(if: TestServer.isEnabled && sqlite3Shell != nil, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL) and the sqlite3 shell"), .ownThread)
struct BusyPoolTests {
    @Test("a round finishes while every thread of the pool is blocked")
    func roundFinishesWhileThePoolIsBlocked() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        try await syncA.syncOnce()

        // Every pool thread blocks for `blockade` (a pool is one thread per core); the test
        // itself runs on a thread of its own, so it goes on.
        let blockade = Duration.seconds(3)
        let width = ProcessInfo.processInfo.activeProcessorCount
        let blocked = LockedCondition(0)
        let release = LockedCondition(false)
        for _ in 0..<width {
            Task.detached {
                blocked.withLock { $0 += 1 }
                release.wait(until: { $0 }, timeout: blockade, then: { _, _ in })
            }
        }
        defer { release.withLock { $0 = true } }
        let allBlocked = blocked.wait(until: { $0 == width }, timeout: .seconds(20), then: { count, _ in count == width })
        try #require(allBlocked, "the pool's \(width) threads never all ran the blocking tasks")

        let start = ContinuousClock.now
        try await syncB.syncOnce()
        let elapsed = ContinuousClock.now - start
        #expect(try b.contents() == a.contents())
        // On the pool, the round's first step waited for the blockade to end.
        #expect(elapsed < blockade - .milliseconds(500), "a round took \(elapsed) while the pool was blocked")
        print("busy pool: a round took \(elapsed) while all \(width) pool threads were blocked")
    }
}
#endif
