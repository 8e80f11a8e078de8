import Signals
import SignalsTesting
import Testing

@Suite("AsyncSequence bridge")
struct AsyncBridgeTests {
    enum Failure: Error, Equatable { case boom }

    @Test func valuesIteratesUntilCompletion() async {
        var collected: [Int] = []
        for await value in Signal<Int, Never>.from([1, 2, 3]).values {
            collected.append(value)
        }
        #expect(collected == [1, 2, 3])
    }

    @Test func valuesThrowsTheFailure() async {
        let signal = Signal<Int, Failure>.just(1).then(Signal<Int, Failure>.fail(.boom))
        var collected: [Int] = []
        await #expect(throws: Failure.boom) {
            for try await value in signal.values { collected.append(value) }
        }
    }

    @Test func breakingOutOfTheLoopDisposesTheSubscription() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        for await value in subject.signal.values {
            #expect(value == 1)
            break
        }
        #expect(await eventually { subject.subscriberCount == 0 })
    }

    @Test func valuesSentFromAnotherThreadArrive() async {
        let subject = PassthroughSubject<Int, Never>()
        let stream = subject.signal.values
        var iterator = stream.makeAsyncIterator()
        Task.detached {
            for n in 1...3 { subject.send(n) }
            subject.complete()
        }
        var collected: [Int] = []
        while let value = await iterator.next() { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func cancellingTheTaskEndsTheIteration() async {
        let subject = PassthroughSubject<Int, Never>()
        let task = Task {
            var count = 0
            for await _ in subject.signal.values { count += 1 }
            return count
        }
        #expect(await eventually { subject.subscriberCount == 1 })
        task.cancel()
        _ = await task.value
        #expect(subject.subscriberCount == 0)
    }

    @Test func signalFromAsyncSequence() async {
        let stream = AsyncStream<Int> { continuation in
            for n in 1...3 { continuation.yield(n) }
            continuation.finish()
        }
        let recorder = Signal<Int, Never>(stream).record()
        #expect(await recorder.events(count: 4))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completed])
    }

    @Test func signalFromThrowingAsyncSequenceFails() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: Failure.boom)
        }
        let recorder = Signal<Int, any Error>(stream).record()
        #expect(await recorder.events(count: 2))
        #expect(recorder.values == [1])
        #expect(recorder.failure as? Failure == .boom)
    }

    @Test func disposingCancelsTheIteratingTask() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = Counter()
        continuation.onTermination = { _ in terminated.increment() }
        let recorder = Signal<Int, Never>(stream).record()
        continuation.yield(1)
        #expect(await recorder.events(count: 1))
        recorder.subscription.dispose()
        #expect(await eventually { terminated.count == 1 })
    }
}
