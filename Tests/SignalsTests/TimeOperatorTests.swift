import Signals
import SignalsTesting
import Testing

/// Time-based operators on virtual time: no sleeping, fully deterministic.
@Suite("Time operators")
struct TimeOperatorTests {
    enum Failure: Error, Equatable { case timedOut, boom }

    @Test func debounceWaitsForQuiet() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.signal.debounce(for: .seconds(1), on: scheduler).record()
        input.send(1)
        scheduler.advance(by: .milliseconds(500))
        input.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == [2])
        input.send(3)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [2, 3])
    }

    @Test func debounceFlushesOnCompletionAndDropsOnFailure() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Failure>()
        let recorder = input.signal.debounce(for: .seconds(1), on: scheduler).record()
        input.send(1)
        input.complete()
        #expect(recorder.events == [.value(1), .completed])
        #expect(scheduler.pendingCount == 0)

        let failing = PassthroughSubject<Int, Failure>()
        let failed = failing.signal.debounce(for: .seconds(1), on: scheduler).record()
        failing.send(1)
        failing.fail(.boom)
        scheduler.run()
        #expect(failed.events == [.failed(.boom)])
    }

    @Test("throttle sends the first value at once and one held value per window", arguments: [true, false])
    func throttle(latest: Bool) {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.signal.throttle(for: .seconds(1), on: scheduler, latest: latest).record()
        input.send(1)
        #expect(recorder.values == [1])
        input.send(2)
        input.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [1, latest ? 3 : 2])
        scheduler.advance(by: .seconds(1))
        input.send(4)
        #expect(recorder.values == [1, latest ? 3 : 2, 4])
    }

    @Test func throttleFlushesTheHeldValueOnCompletion() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.signal.throttle(for: .seconds(1), on: scheduler, latest: true).record()
        input.send(1)
        input.send(2)
        input.complete()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func delayShiftsValuesAndCompletion() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Failure>()
        let recorder = input.signal.delay(for: .seconds(2), on: scheduler).record()
        input.send(1)
        scheduler.advance(by: .seconds(1))
        input.send(2)
        input.complete()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(1)])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func delayPassesFailureAtOnce() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Failure>()
        let recorder = input.signal.delay(for: .seconds(2), on: scheduler).record()
        input.send(1)
        input.fail(.boom)
        scheduler.run()
        #expect(recorder.events == [.failed(.boom)])
    }

    @Test func timeoutFailsAfterSilence() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Failure>()
        let recorder = input.signal.timeout(.seconds(5), on: scheduler, error: { .timedOut }).record()
        scheduler.advance(by: .seconds(4))
        input.send(1)
        scheduler.advance(by: .seconds(4))
        #expect(recorder.events == [.value(1)])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.value(1), .failed(.timedOut)])
        #expect(input.subscriberCount == 0)
    }

    @Test func timeoutWithoutErrorCompletes() {
        let scheduler = TestScheduler()
        let recorder = Signal<Int, Never>.never.timeout(.seconds(1), on: scheduler).record()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.completed])
    }

    @Test func disposingCancelsPendingTimers() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.signal.debounce(for: .seconds(1), on: scheduler).record()
        input.send(1)
        recorder.subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.values.isEmpty)
    }
}
