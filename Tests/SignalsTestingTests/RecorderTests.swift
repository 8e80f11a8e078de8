import Dispatch
import Signals
import SignalsTesting
import Testing

@Suite("Recorder")
struct RecorderTests {
    enum Failure: Error, Equatable { case boom }

    @Test func recordsEventsValuesAndTheEnding() {
        let subject = PassthroughSubject<Int, Failure>()
        let recorder = subject.record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [1, 2])
        #expect(!recorder.isTerminated)
        subject.fail(.boom)
        #expect(recorder.events == [.value(1), .value(2), .failed(.boom)])
        #expect(recorder.failure == .boom)
        #expect(!recorder.isCompleted)
        #expect(recorder.isTerminated)
    }

    @Test func recordsCompletion() {
        let recorder = Signal<Int, Never>.just(1).record()
        #expect(recorder.isCompleted)
        #expect(recorder.failure == nil)
    }

    @Test func disposingTheSubscriptionStopsRecording() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.signal.record()
        recorder.subscription.dispose()
        subject.send(1)
        #expect(recorder.events.isEmpty)
    }

    @Test func waitForEventsWaitsForOtherThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        DispatchQueue.global().async { (1...3).forEach(subject.send) }
        #expect(recorder.waitForEvents(count: 3))
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func waitForEventsTimesOut() {
        let recorder = Signal<Int, Never>.never.record()
        #expect(!recorder.waitForEvents(count: 1, timeout: .milliseconds(20)))
    }

    @Test func asyncWaitResumesWhenEventsArrive() async {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        Task.detached { (1...3).forEach(subject.send) }
        #expect(await recorder.events(count: 3))
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func asyncWaitTimesOut() async {
        let recorder = Signal<Int, Never>.never.record()
        #expect(await !recorder.events(count: 1, timeout: .milliseconds(20)))
    }
}
