import Signals
import SignalsTesting
import Testing

@Suite("Transforming operators")
struct TransformOperatorTests {
    enum Failure: Error, Equatable { case boom, other }

    @Test func map() {
        let subject = PassthroughSubject<Int, Failure>()
        let recorder = subject.signal.map { "#\($0)" }.record()
        subject.send(1)
        subject.send(2)
        subject.fail(.boom)
        #expect(recorder.events == [.value("#1"), .value("#2"), .failed(.boom)])
    }

    @Test func compactMap() {
        let recorder = Signal<String, Never>.from(["1", "x", "3"]).compactMap { Int($0) }.record()
        #expect(recorder.events == [.value(1), .value(3), .completed])
    }

    @Test func filter() {
        let recorder = Signal<Int, Never>.from(1...6).filter { $0.isMultiple(of: 2) }.record()
        #expect(recorder.events == [.value(2), .value(4), .value(6), .completed])
    }

    @Test func removeDuplicates() {
        let recorder = Signal<String, Never>.from(["a", "a", "b", "a", "a"]).removeDuplicates().record()
        #expect(recorder.values == ["a", "b", "a"])
        #expect(recorder.isCompleted)
    }

    @Test func removeDuplicatesByPredicate() {
        let recorder = Signal<Int, Never>.from([1, 11, 2, 25, 21]).removeDuplicates { $0 / 10 == $1 / 10 }.record()
        #expect(recorder.values == [1, 11, 2, 25])
    }

    @Test func scan() {
        let recorder = Signal<Int, Never>.from([1, 2, 3]).scan(0, +).record()
        #expect(recorder.events == [.value(1), .value(3), .value(6), .completed])
    }

    @Test func scanStateIsPerSubscription() {
        let signal = Signal<Int, Never>.from([1, 2]).scan(0, +)
        #expect(signal.record().values == [1, 3])
        #expect(signal.record().values == [1, 3])
    }

    @Test func mapError() {
        let recorder = Signal<Int, Failure>.fail(.boom).mapError { _ in Failure.other }.record()
        #expect(recorder.events == [.failed(.other)])
    }

    @Test func handleEvents() {
        let log = Log<String>()
        let recorder = Signal<Int, Never>.from([1, 2])
            .handleEvents(
                onSubscribe: { log.append("subscribe") },
                onValue: { log.append("value \($0)") },
                onCompleted: { log.append("completed") }
            )
            .record()
        #expect(log.elements == ["subscribe", "value 1", "value 2", "completed"])
        #expect(recorder.values == [1, 2])
        let failing = Signal<Int, Failure>.fail(.boom).handleEvents(onFailure: { log.append("failed \($0)") }).record()
        #expect(failing.failure == .boom)
        #expect(log.elements.last == "failed boom")
    }

    @Test func onTerminationRunsOnceForEveryEnding() {
        let count = Counter()
        _ = Signal<Int, Never>.just(1).onTermination { count.increment() }.record()
        #expect(count.count == 1)
        _ = Signal<Int, Failure>.fail(.boom).onTermination { count.increment() }.record()
        #expect(count.count == 2)
        let recorder = Signal<Int, Never>.never.onTermination { count.increment() }.record()
        #expect(count.count == 2)
        recorder.subscription.dispose()
        recorder.subscription.dispose()
        #expect(count.count == 3)
    }

    @Test func onTerminationRunsAfterTheTerminalEvent() {
        let log = Log<String>()
        Signal<Int, Never>.just(1)
            .onTermination { log.append("finally") }
            .subscribe(onCompleted: { log.append("completed") })
        #expect(log.elements == ["completed", "finally"])
    }
}
