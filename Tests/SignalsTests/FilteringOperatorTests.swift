import Signals
import SignalsTesting
import Testing

@Suite("Take and skip")
struct FilteringOperatorTests {
    @Test func takeCompletesAndDisposesTheSource() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.signal.take(2).record()
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.value(1), .value(2), .completed])
        #expect(subject.subscriberCount == 0)
    }

    @Test func takeZeroCompletesAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subject.signal.take(0).record().events == [.completed])
        #expect(subject.subscriberCount == 0)
    }

    @Test func takeWhile() {
        let recorder = Signal<Int, Never>.from([1, 2, 5, 1]).take(while: { $0 < 3 }).record()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }

    @Test func takeUntil() {
        let subject = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = subject.signal.take(until: trigger.signal).record()
        subject.send(1)
        trigger.send(())
        subject.send(2)
        #expect(recorder.events == [.value(1), .completed])
        #expect(subject.subscriberCount == 0)
        #expect(trigger.subscriberCount == 0)
    }

    @Test func takeUntilIgnoresTheTriggersCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = subject.signal.take(until: trigger.signal).record()
        trigger.complete()
        subject.send(1)
        #expect(recorder.events == [.value(1)])
    }

    @Test func skip() {
        #expect(Signal<Int, Never>.from(1...4).skip(2).record().events == [.value(3), .value(4), .completed])
        #expect(Signal<Int, Never>.from(1...2).skip(0).record().values == [1, 2])
    }

    @Test func skipWhile() {
        let recorder = Signal<Int, Never>.from([1, 2, 5, 1]).skip(while: { $0 < 3 }).record()
        #expect(recorder.values == [5, 1])
    }

    @Test func prepend() {
        let recorder = Signal<Int, Never>.from([3]).prepend(1, 2).record()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func prependStopsOnceTheSubscriptionEnds() {
        let produced = Counter()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.signal
            .prepend(contentsOf: [1, 2, 3])
            .handleEvents(onValue: { _ in produced.increment() })
            .take(1)
            .record()
        #expect(recorder.events == [.value(1), .completed])
        #expect(produced.count == 1)
        #expect(subject.subscriberCount == 0)
    }
}
