import Signals
import SignalsTesting
import Testing

@Suite("Combining operators")
struct CombiningOperatorTests {
    enum Failure: Error, Equatable { case boom }

    @Test func merge() {
        let a = PassthroughSubject<Int, Failure>()
        let b = PassthroughSubject<Int, Failure>()
        let recorder = Signal.merge(a.signal, b.signal).record()
        a.send(1)
        b.send(2)
        a.complete()
        b.send(3)
        #expect(!recorder.isCompleted)
        b.complete()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func mergeFailsOnFirstFailureAndDisposesTheRest() {
        let a = PassthroughSubject<Int, Failure>()
        let b = PassthroughSubject<Int, Failure>()
        let recorder = Signal.merge([a.signal, b.signal]).record()
        a.fail(.boom)
        b.send(1)
        #expect(recorder.events == [.failed(.boom)])
        #expect(b.subscriberCount == 0)
    }

    @Test func mergeOfNothingCompletes() {
        #expect(Signal<Int, Never>.merge([]).record().events == [.completed])
    }

    @Test func zip() {
        let a = PassthroughSubject<Int, Failure>()
        let b = PassthroughSubject<String, Failure>()
        let recorder = Signal.zip(a.signal, b.signal).map { "\($0)\($1)" }.record()
        a.send(1)
        a.send(2)
        b.send("x")
        a.complete()
        #expect(!recorder.isCompleted)
        b.send("y")
        #expect(recorder.events == [.value("1x"), .value("2y"), .completed])
    }

    @Test func zipThree() {
        let recorder = Signal<(Int, Int, Int), Never>.zip(.from([1, 2]), .from([10, 20]), .from([100]))
            .map { $0 + $1 + $2 }
            .record()
        #expect(recorder.events == [.value(111), .completed])
    }

    @Test func combineLatest() {
        let a = PassthroughSubject<Int, Failure>()
        let b = PassthroughSubject<String, Failure>()
        let recorder = Signal.combineLatest(a.signal, b.signal).map { "\($0)\($1)" }.record()
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        a.complete()
        #expect(!recorder.isCompleted)
        b.complete()
        #expect(recorder.events == [.value("2x"), .value("3x"), .value("3y"), .completed])
    }

    @Test func combineLatestThreeAndFailure() {
        let a = PassthroughSubject<Int, Failure>()
        let recorder = Signal.combineLatest(a.signal, Signal.just(10), Signal.just(100)).map { $0 + $1 + $2 }.record()
        a.send(1)
        a.fail(.boom)
        #expect(recorder.events == [.value(111), .failed(.boom)])
    }

    @Test func withLatestFrom() {
        let taps = PassthroughSubject<Int, Never>()
        let text = PassthroughSubject<String, Never>()
        let recorder = taps.signal.withLatest(from: text.signal).map { "\($0)\($1)" }.record()
        taps.send(1)
        text.send("a")
        text.send("b")
        taps.send(2)
        text.complete()
        taps.send(3)
        taps.complete()
        #expect(recorder.events == [.value("2b"), .value("3b"), .completed])
    }

    @Test func flatMapMergesInnerSignals() {
        let outer = PassthroughSubject<Int, Failure>()
        let inners = [PassthroughSubject<String, Failure>(), PassthroughSubject<String, Failure>()]
        let recorder = outer.signal.flatMap { inners[$0].signal }.record()
        outer.send(0)
        outer.send(1)
        inners[0].send("a")
        inners[1].send("b")
        inners[0].send("c")
        outer.complete()
        inners[0].complete()
        #expect(inners[0].subscriberCount == 0)
        #expect(!recorder.isCompleted)
        inners[1].complete()
        #expect(recorder.events == [.value("a"), .value("b"), .value("c"), .completed])
    }

    @Test func flatMapWithSynchronousInnerSignals() {
        let recorder = Signal<Int, Never>.from([1, 2]).flatMap { Signal.from([$0, $0 * 10]) }.record()
        #expect(recorder.events == [.value(1), .value(10), .value(2), .value(20), .completed])
    }

    @Test func flatMapInnerFailureEndsEverything() {
        let outer = PassthroughSubject<Int, Failure>()
        let recorder = outer.signal.flatMap { _ in Signal<Int, Failure>.fail(.boom) }.record()
        outer.send(1)
        #expect(recorder.events == [.failed(.boom)])
        #expect(outer.subscriberCount == 0)
    }

    @Test func flatMapLatestSwitchesAndDisposesThePrevious() {
        let outer = PassthroughSubject<Int, Failure>()
        let inners = [PassthroughSubject<String, Failure>(), PassthroughSubject<String, Failure>()]
        let recorder = outer.signal.flatMapLatest { inners[$0].signal }.record()
        outer.send(0)
        inners[0].send("a")
        outer.send(1)
        #expect(inners[0].subscriberCount == 0)
        inners[0].send("stale")
        inners[1].send("b")
        outer.complete()
        #expect(!recorder.isCompleted)
        inners[1].complete()
        #expect(recorder.events == [.value("a"), .value("b"), .completed])
    }

    @Test func then() {
        let first = PassthroughSubject<Int, Failure>()
        let recorder = first.signal.then(Signal<String, Failure>.just("next")).record()
        first.send(1)
        #expect(recorder.events.isEmpty)
        first.complete()
        #expect(recorder.events == [.value("next"), .completed])
    }

    @Test func thenPassesFailureOn() {
        let recorder = Signal<Int, Failure>.fail(.boom).then(Signal<String, Failure>.just("never")).record()
        #expect(recorder.events == [.failed(.boom)])
    }

    @Test func catchReplacesFailure() {
        let recorder = Signal<Int, Failure>.just(1).then(Signal<Int, Failure>.fail(.boom))
            .catch { _ in Signal<Int, Never>.from([8, 9]) }
            .record()
        #expect(recorder.events == [.value(8), .value(9), .completed])
    }

    @Test func retryResubscribes() {
        let attempts = Counter()
        let flaky = Signal<Int, Failure> { subscriber in
            attempts.increment()
            subscriber.send(attempts.count)
            if attempts.count < 3 { subscriber.fail(.boom) } else { subscriber.complete() }
            return AnyDisposable()
        }
        #expect(flaky.retry(5).record().events == [.value(1), .value(2), .value(3), .completed])
        #expect(attempts.count == 3)
    }

    @Test func retryGivesUpWithTheLastFailure() {
        let attempts = Counter()
        let failing = Signal<Int, Failure> { subscriber in
            attempts.increment()
            subscriber.fail(.boom)
            return AnyDisposable()
        }
        #expect(failing.retry(2).record().events == [.failed(.boom)])
        #expect(attempts.count == 3)
        #expect(failing.retry(0).record().events == [.failed(.boom)])
    }

    @Test func retryManyTimesDoesNotGrowTheStack() {
        let failing = Signal<Int, Failure> { subscriber in
            subscriber.fail(.boom)
            return AnyDisposable()
        }
        #expect(failing.retry(100_000).record().events == [.failed(.boom)])
    }
}
