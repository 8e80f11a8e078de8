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
@Suite("Sync: a busy cooperative pool does not stall sync", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct BusyPoolTests {
    @Test("a round finishes while every thread of the pool is blocked")
    func roundFinishesWhileThePoolIsBlocked() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'open')")
        try await syncA.syncOnce()

        let release = try Self.blockThePool(for: Self.blockade)
        defer { release() }
        let start = ContinuousClock.now
        try await syncB.syncOnce()
        let elapsed = ContinuousClock.now - start
        #expect(try b.contents() == a.contents())
        // On the pool, the round's first step waited for the blockade to end.
        #expect(elapsed < Self.blockade - .milliseconds(500), "a round took \(elapsed) while the pool was blocked")
        print("busy pool: a round took \(elapsed) while all pool threads were blocked")
    }

    /// The administrator's calls connect as `SyncClient`'s rounds do, so the same holds for
    /// them. Seen in the suite's first seconds on 2 cores: the scope convergence test's
    /// `SyncScopes.setUp` failed with "did not answer for 8.0 s while connecting".
    @Test("the administrator's scope calls finish while every thread of the pool is blocked")
    func scopeCallsFinishWhileThePoolIsBlocked() async throws {
        let folder = TemporaryDirectory()
        let adminURL = try TestServer.freshURL()
        let url = try PostgresURL(adminURL)
        let admin = try Replica(folder, "admin", migrations: ScopeTests.migrations)
        let role = "pool_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(8)
        try ScopeTests.psqlAsAdmin(adminURL, "CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'")
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("setUp", { try await SyncScopes.setUp(url, scopeColumn: "team_id", store: admin.store) }),
            ("grant", { try await SyncScopes.grant(url, role: role, scopes: ["1", "2"]) }),
            ("grants", {
                let scopes = try await SyncScopes.grants(url).filter { $0.role == role }.map(\.scope)
                #expect(scopes == ["1", "2"])
            }),
            ("revoke", { try await SyncScopes.revoke(url, role: role, scopes: ["2"]) }),
        ]
        for (name, call) in calls {
            let release = try Self.blockThePool(for: Self.blockade)
            defer { release() }
            let start = ContinuousClock.now
            try await call()
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < Self.blockade - .milliseconds(500), "SyncScopes.\(name) took \(elapsed) while the pool was blocked")
        }
    }

    /// How long the pool's threads stay blocked: long enough that a call that needs the pool
    /// is seen to wait.
    static let blockade = Duration.seconds(3)

    /// Blocks every thread of the cooperative pool (one per core) for `blockade`, or until the
    /// returned function is called; returns once they all block. The test itself runs on a
    /// thread of its own (`.ownThread`), so it goes on.
    static func blockThePool(for blockade: Duration) throws -> @Sendable () -> Void {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let blocked = LockedCondition(0)
        let release = LockedCondition(false)
        for _ in 0..<width {
            Task.detached {
                blocked.withLock { $0 += 1 }
                release.wait(until: { $0 }, timeout: blockade, then: { _, _ in })
            }
        }
        let allBlocked = blocked.wait(until: { $0 == width }, timeout: .seconds(20), then: { count, _ in count == width })
        try #require(allBlocked, "the pool's \(width) threads never all ran the blocking tasks")
        return { release.withLock { $0 = true } }
    }
}
#endif
