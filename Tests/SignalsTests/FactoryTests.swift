import Signals
import SignalsTesting
import Testing

@Suite("Factories")
struct FactoryTests {
    enum Failure: Error, Equatable { case boom }

    @Test func just() {
        #expect(Signal<Int, Never>.just(5).record().events == [.value(5), .completed])
    }

    @Test func empty() {
        #expect(Signal<Int, Never>.empty.record().events == [.completed])
    }

    @Test func never() {
        let recorder = Signal<Int, Never>.never.record()
        #expect(recorder.events.isEmpty)
        #expect(!recorder.subscription.isDisposed)
    }

    @Test func fail() {
        #expect(Signal<Int, Failure>.fail(.boom).record().events == [.failed(.boom)])
    }

    @Test func from() {
        #expect(Signal<Int, Never>.from([1, 2]).record().events == [.value(1), .value(2), .completed])
    }

    @Test func coldSignalsRunTheGeneratorPerSubscription() {
        let runs = Counter()
        let signal = Signal<Int, Never> { subscriber in
            runs.increment()
            subscriber.send(runs.count)
            return AnyDisposable()
        }
        #expect(signal.record().values == [1])
        #expect(signal.record().values == [2])
    }

    @Test func deferredBuildsPerSubscription() {
        let builds = Counter()
        let signal = Signal<Int, Never>.deferred {
            builds.increment()
            return .just(builds.count)
        }
        #expect(builds.count == 0)
        #expect(signal.record().values == [1])
        #expect(signal.record().values == [2])
    }
}
