#if SIGNALSTORE_SYNC
@testable import SignalStoreSync
import Testing

/// The sync loop's wake-up: no ring may be lost (a change would wait for the next poll), and
/// a burst of rings costs one pass.
@Suite("Sync: the doorbell", .timeLimit(.minutes(1)))
struct DoorbellTests {
    private let forever = Duration.seconds(3_600)

    @Test("rings while nobody waits are remembered, as one")
    func ringsWhileNobodyWaitsCountOnce() async {
        let doorbell = Doorbell()
        for _ in 1...3 { doorbell.ring() }
        await doorbell.wait(timeout: forever)   // returns at once: the time limit proves it
        let clock = ContinuousClock()
        let start = clock.now
        await doorbell.wait(timeout: .milliseconds(200))
        #expect(clock.now - start >= .milliseconds(200), "the three rings woke two waits")
    }

    @Test("a ring after a wait timed out wakes the next wait")
    func aRingAfterATimeoutIsKept() async {
        let doorbell = Doorbell()
        await doorbell.wait(timeout: .milliseconds(10))
        doorbell.ring()
        await doorbell.wait(timeout: forever)
    }

    @Test("a ring wakes a wait in progress, and cancelling ends one")
    func ringAndCancelEndWaits() async {
        let doorbell = Doorbell()
        let ringing = Task { await doorbell.wait(timeout: forever) }
        #expect(await eventuallyAsync { doorbell.isWaitedOn })
        doorbell.ring()
        await ringing.value
        let cancelled = Task { await doorbell.wait(timeout: forever) }
        cancelled.cancel()
        await cancelled.value
    }
}
#endif
