import Signals
import SignalsTesting
import Testing

@Suite("Subjects and properties")
struct SubjectTests {
    enum Failure: Error, Equatable { case boom }

    @Test func passthroughDeliversOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Failure>()
        subject.send(0)
        let recorder = subject.record()
        subject.send(1)
        subject.complete()
        subject.send(2)
        #expect(recorder.events == [.value(1), .completed])
        #expect(subject.subscriberCount == 0)
    }

    @Test func currentValueSubjectReplaysAndHoldsTheValue() {
        let subject = CurrentValueSubject<String, Never>("a")
        subject.value = "b"
        let recorder = subject.signal.record()
        subject.send("c")
        #expect(subject.value == "c")
        #expect(recorder.values == ["b", "c"])
    }

    @Test func currentValueSubjectIgnoresSendsAfterTermination() {
        let subject = CurrentValueSubject<Int, Failure>(1)
        subject.fail(.boom)
        subject.send(2)
        #expect(subject.value == 1)
        #expect(subject.record().events == [.value(1), .failed(.boom)])
    }

    @Test("ReplaySubject replays its buffer", arguments: [0, 1, 3])
    func replaySubject(bufferSize: Int) {
        let subject = ReplaySubject<Int, Never>(bufferSize: bufferSize)
        (1...4).forEach(subject.send)
        let recorder = subject.record()
        subject.send(5)
        #expect(recorder.values == Array((1...4).suffix(bufferSize)) + [5])
    }

    @Test func mutablePropertyReplaysAndNotifies() {
        let property = MutableProperty(1)
        let recorder = property.record()
        property.value = 2
        #expect(property.value == 2)
        #expect(recorder.values == [1, 2])
    }

    @Test func mutablePropertyCompletesWhenReleased() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let recorder = property!.record()
        property = nil
        #expect(recorder.events == [.value(1), .completed])
    }

    @Test func propertyIsAReadOnlyViewThatFollowsTheSource() {
        let source = MutableProperty("a")
        let property = Property(source)
        let recorder = property.record()
        source.value = "b"
        #expect(property.value == "b")
        #expect(recorder.values == ["a", "b"])
    }

    @Test func constantProperty() {
        let property = Property(value: 3)
        #expect(property.value == 3)
        #expect(property.record().values == [3])
    }

    @Test func propertyFromInitialThenSignal() {
        let updates = PassthroughSubject<Int, Never>()
        var property: Property<Int>? = Property(initial: 0, then: updates.signal)
        let recorder = property!.record()
        updates.send(5)
        #expect(property?.value == 5)
        #expect(recorder.values == [0, 5])
        property = nil
        #expect(updates.subscriberCount == 0)
    }

    @Test func subjectsCanBePassedAsSignals() {
        let a = PassthroughSubject<Int, Never>()
        let b = CurrentValueSubject<Int, Never>(10)
        let recorder = Signal.merge(a.signal, b.signal).record()
        a.send(1)
        #expect(recorder.values == [10, 1])
    }

    @Test func manySubscribersAllReceiveInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<Int>()
        let subscriptions = (0..<100).map { index in subject.subscribe(onValue: { _ in log.append(index) }) }
        subject.send(1)
        #expect(log.elements == Array(0..<100))
        subscriptions.enumerated().filter { $0.offset.isMultiple(of: 2) }.forEach { $0.element.dispose() }
        #expect(subject.subscriberCount == 50)
        subject.send(2)
        #expect(log.elements.suffix(50) == Array(stride(from: 1, to: 100, by: 2)))
    }
}
