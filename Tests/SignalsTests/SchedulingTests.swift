import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite("Schedulers, observe(on:) and subscribe(on:)")
struct SchedulingTests {
    private static let queueKey = DispatchSpecificKey<String>()

    private func labelledScheduler(_ label: String) -> QueueScheduler {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.queueKey, value: label)
        return QueueScheduler(queue: queue)
    }

    @Test func observeOnDeliversEveryEventOnTheScheduler() {
        let scheduler = labelledScheduler("observe")
        let queues = Log<String?>()
        let recorder = Signal<Int, Never>.from(1...100)
            .observe(on: scheduler)
            .handleEvents(onValue: { _ in queues.append(DispatchQueue.getSpecific(key: Self.queueKey)) })
            .record()
        #expect(recorder.waitForEvents(count: 101))
        #expect(recorder.values == Array(1...100))
        #expect(recorder.isCompleted)
        #expect(Set(queues.elements) == ["observe"])
    }

    @Test func observeOnKeepsCallbacksOffTheSendingThreadEvenUnderLoad() {
        let scheduler = labelledScheduler("target")
        let subject = PassthroughSubject<Int, Never>()
        let wrongQueue = Counter()
        let recorder = subject.signal
            .observe(on: scheduler)
            .handleEvents(onValue: { _ in
                if DispatchQueue.getSpecific(key: Self.queueKey) != "target" { wrongQueue.increment() }
            })
            .record()
        onThreads(4) { thread in for n in 0..<500 { subject.send(thread * 1_000 + n) } }
        #expect(recorder.waitForEvents(count: 2_000))
        #expect(wrongQueue.count == 0)
    }

    @Test func subscribeOnRunsTheGeneratorOnTheScheduler() {
        let scheduler = labelledScheduler("subscribe")
        let generatorQueue = Log<String?>()
        let recorder = Signal<Int, Never> { subscriber in
            generatorQueue.append(DispatchQueue.getSpecific(key: Self.queueKey))
            subscriber.send(1)
            subscriber.complete()
            return AnyDisposable()
        }
        .subscribe(on: scheduler)
        .record()
        #expect(recorder.waitForEvents(count: 2))
        #expect(generatorQueue.elements == ["subscribe"])
    }

    @Test func subscribeOnDoesNotRunTheGeneratorAfterDispose() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let recorder = Signal<Int, Never> { _ in
            runs.increment()
            return AnyDisposable()
        }
        .subscribe(on: scheduler)
        .record()
        recorder.subscription.dispose()
        scheduler.run()
        #expect(runs.count == 0)
    }

    @Test func queueSchedulerRunsDelayedActionsAndCancels() {
        let scheduler = labelledScheduler("delayed")
        let ran = Log<String>()
        // The queue is held by a gate until the action is disposed, so the test never races the
        // clock: however slow this thread, the action cannot start before `dispose()`.
        let gate = DispatchSemaphore(value: 0)
        scheduler.schedule { gate.wait() }
        let cancelled = scheduler.schedule(after: .milliseconds(1)) { ran.append("cancelled") }
        cancelled.dispose()
        gate.signal()
        scheduler.schedule(after: .milliseconds(5)) { ran.append("delayed") }
        #expect(waitUntil { ran.count == 1 })
        // The queue is serial: once this runs, the earlier-due cancelled action has had its turn.
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: .milliseconds(10)) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.elements == ["delayed"])
        #expect(scheduler.now > .zero)
    }

    @Test func immediateSchedulerRunsAtOnce() {
        let scheduler = ImmediateScheduler()
        let ran = Log<Int>()
        scheduler.schedule { ran.append(1) }
        scheduler.schedule(after: .seconds(100)) { ran.append(2) }
        #expect(ran.elements == [1, 2])
        let recorder = Signal<Int, Never>.from([1, 2]).observe(on: scheduler).record()
        #expect(recorder.events == [.value(1), .value(2), .completed])
    }
}
