import Signals
import SignalsTesting
import Synchronization
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: .seconds(1)) { log.append("later") }
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(log.all == ["now"])
        #expect(scheduler.now == .zero)
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["now", "later"])
        #expect(scheduler.now == .seconds(1))
    }

    @Test func actionsRunInTimeOrderThenSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(2)) { log.append("b1") }
        scheduler.schedule(after: .seconds(1)) { log.append("a") }
        scheduler.schedule(after: .seconds(2)) { log.append("b2") }
        scheduler.advance(by: .seconds(5))
        #expect(log.all == ["a", "b1", "b2"])
        #expect(scheduler.now == .seconds(5))
    }

    @Test func theClockReadsEachActionsDueTimeWhileItRuns() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(3)) { log.append("\(scheduler.now)") }
        scheduler.advance(by: .seconds(10))
        #expect(log.all == ["\(Duration.seconds(3))"])
    }

    @Test func actionsScheduledWhileAdvancingRunIfDue() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(1)) {
            log.append("first")
            scheduler.schedule(after: .seconds(1)) { log.append("second") }
            scheduler.schedule(after: .seconds(5)) { log.append("too late") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["first", "second"])
        #expect(scheduler.pendingCount == 1)
    }

    @Test func runRunsEverything() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule(after: .seconds(100)) { log.append("far") }
        scheduler.run()
        #expect(log.all == ["far"])
        #expect(scheduler.now == .seconds(100))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancelledActionsDoNotRun() {
        let scheduler = TestScheduler()
        let log = Log()
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.append("cancelled") }
        cancelled.dispose()
        scheduler.run()
        #expect(log.all.isEmpty)
    }
}
