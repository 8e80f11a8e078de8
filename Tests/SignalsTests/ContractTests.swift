import Dispatch
import Signals
import SignalsTesting
import Synchronization
import Testing

/// One test (or more) per rule of the signal contract (DESIGN.md §2, Signals.docc/SignalContract.md).
@Suite("Signal contract")
struct ContractTests {
    enum Failure: Error, Equatable { case boom }

    // Rule 1: grammar; terminal releases closures and disposes resources once.
    @Test("1. value* (failed | completed)? and nothing after the terminal event")
    func grammar() {
        let signal = Signal<Int, Failure> { subscriber in
            subscriber.send(1)
            subscriber.complete()
            subscriber.send(2)
            subscriber.fail(.boom)
            subscriber.complete()
            return AnyDisposable()
        }
        #expect(signal.record().events == [.value(1), .completed])
    }

    @Test("1. a terminal event disposes the generator's resources exactly once and releases closures")
    func terminalReleasesOnce() {
        let disposals = Counter()
        weak var weakToken: Token?
        let subject = PassthroughSubject<Int, Failure>()
        let subscription: any Disposable
        do {
            let token = Token()
            weakToken = token
            let signal = Signal<Int, Failure> { subscriber in
                let inner = subject.signal.subscribe { subscriber.receive($0) }
                return AnyDisposable {
                    disposals.increment()
                    inner.dispose()
                }
            }
            subscription = signal.subscribe(onValue: { _ in _ = token })
        }
        #expect(weakToken != nil)
        subject.fail(.boom)
        #expect(disposals.count == 1)
        #expect(weakToken == nil)
        subscription.dispose()
        subscription.dispose()
        #expect(disposals.count == 1)
        #expect(subscription.isDisposed)
    }

    // Rule 2: delivery to one subscriber is serialized, from any thread.
    @Test("2. concurrent sends from many threads never overlap inside one subscriber")
    func serializedDelivery() {
        let captured = Locked<Subscriber<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { subscriber in
            captured.withLock { $0 = subscriber }
            return AnyDisposable()
        }
        let inside = Atomic<Bool>(false)
        let overlaps = Counter()
        let received = Counter()
        signal.subscribe(onValue: { _ in
            if inside.exchange(true, ordering: .acquiring) { overlaps.increment() }
            received.increment()
            inside.store(false, ordering: .releasing)
        })
        let subscriber = captured.withLock { $0 }!
        onThreads(8) { thread in
            for n in 0..<2_000 { subscriber.send(thread * 10_000 + n) }
        }
        #expect(waitUntil { received.count == 16_000 })
        #expect(overlaps.count == 0)
    }

    // Rule 3: no lock is held while user code runs.
    @Test("3. callbacks may use the same subject and disposable, and wait on other threads using them")
    func noLockHeldDuringCallouts() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let reachedOtherThread = Counter()
        var subscription: (any Disposable)?
        let holder = Locked<(any Disposable)?>(nil)
        subscription = subject.subscribe(onValue: { value in
            guard value == 1 else { return }
            // Another thread touches the subject while this callback runs: it would deadlock if
            // the delivering thread held the subject's or the subscription's lock.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = subject.value
                subject.subscribe(onValue: { _ in }).dispose()
                subject.send(2)
                holder.withLock { $0 }?.isDisposed == false ? reachedOtherThread.increment() : ()
                done.signal()
            }
            if done.wait(timeout: .now() + 10) == .success { reachedOtherThread.increment() }
        })
        holder.withLock { $0 = subscription }
        subject.send(1)
        #expect(reachedOtherThread.count == 2)
        #expect(subject.value == 2)
        subscription?.dispose()
    }

    // Rule 4: re-entrant sends are queued, delivered after the current round, FIFO, to everyone.
    @Test("4. a value sent from a callback reaches every subscriber after the current round, in FIFO order")
    func reentrantSendsAreQueued() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<String>()
        subject.subscribe(onValue: { value in
            log.append("A\(value)")
            if value == 1 {
                subject.send(2)
                subject.send(3)
                log.append("A-returned")
            }
        })
        subject.subscribe(onValue: { log.append("B\($0)") })
        subject.send(1)
        #expect(log.elements == ["A1", "A-returned", "B1", "A2", "B2", "A3", "B3"])
    }

    @Test("4. re-entrant sends through an operator chain do not nest either")
    func reentrantThroughOperators() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<String>()
        subject.signal.map { $0 * 10 }.subscribe(onValue: { value in
            log.append("start \(value)")
            if value == 10 { subject.send(2) }
            log.append("end \(value)")
        })
        subject.send(1)
        #expect(log.elements == ["start 10", "end 10", "start 20", "end 20"])
    }

    // Rule 5: replay without gap or duplicate; values emitted after they are stored.
    @Test("5. subscribe replays the current value synchronously; value is stored before it is emitted")
    func replayIsSynchronousAndStoredFirst() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let seenInCallback = Log<Int>()
        let recorder = subject.record()
        #expect(recorder.values == [7])
        subject.subscribe(onValue: { _ in seenInCallback.append(subject.value) })
        subject.value = 8
        #expect(recorder.values == [7, 8])
        #expect(seenInCallback.elements == [7, 8])
    }

    @Test("5. subscribing while another thread sends: every subscriber sees a gapless, duplicate-free tail", arguments: [0, 1])
    func replayUnderConcurrentSends(round: Int) {
        let subject = CurrentValueSubject<Int, Never>(0)
        let last = 5_000
        let recorders = Locked<[Recorder<Int, Never>]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                for value in 1...last { subject.send(value) }
            } else {
                for _ in 0..<200 { recorders.withLock { $0.append(subject.record()) } }
            }
        }
        for recorder in recorders.withLock({ $0 }) {
            #expect(waitUntil { recorder.events.last == .value(last) })
            let values = recorder.values
            #expect(values == Array(values.first!...last), "gap or duplicate in \(values.prefix(5))…")
        }
    }

    // Rule 6: dispose.
    @Test("6. dispose from inside the subscriber's own callback stops delivery at once")
    func disposeFromOwnCallback() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<Int>()
        let holder = Locked<(any Disposable)?>(nil)
        let subscription = subject.subscribe(onValue: { value in
            log.append(value)
            if value == 1 {
                subject.send(2)   // queued behind this delivery
                holder.withLock { $0 }?.dispose()
            }
        })
        holder.withLock { $0 = subscription }
        subject.send(1)
        subject.send(3)
        #expect(log.elements == [1])
        #expect(subscription.isDisposed)
        #expect(subject.subscriberCount == 0)
    }

    @Test("6. dispose from another thread: at most the delivery in progress finishes, nothing new starts")
    func disposeFromAnotherThread() {
        let subject = PassthroughSubject<Int, Never>()
        let disposedReturned = Atomic<Bool>(false)
        let startedAfterDispose = Counter()
        let received = Counter()
        let subscription = subject.subscribe(onValue: { _ in
            if disposedReturned.load(ordering: .acquiring) { startedAfterDispose.increment() }
            received.increment()
        })
        let sending = Atomic<Bool>(true)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                var n = 0
                while sending.load(ordering: .relaxed) { subject.send(n); n += 1 }
            } else {
                _ = waitUntil { received.count > 1_000 }
                subscription.dispose()
                disposedReturned.store(true, ordering: .releasing)
                let countAtDispose = received.count
                _ = waitUntil(timeout: .milliseconds(50)) { received.count > countAtDispose + 1 }
                sending.store(false, ordering: .relaxed)
            }
        }
        #expect(startedAfterDispose.count <= 1)
    }

    @Test("6. dispose is idempotent and thread-safe: resources are released exactly once")
    func disposeIsIdempotent() {
        for _ in 0..<200 {
            let disposals = Counter()
            let subscription = Signal<Int, Never> { _ in AnyDisposable { disposals.increment() } }
                .subscribe(onValue: { _ in })
            onThreads(4) { _ in subscription.dispose() }
            #expect(disposals.count == 1)
        }
    }

    // Rule 7: subscribing after termination.
    @Test("7. after termination a new subscriber gets the replay, then the terminal event at once")
    func subscribeAfterTermination() {
        let passthrough = PassthroughSubject<Int, Failure>()
        passthrough.fail(.boom)
        #expect(passthrough.record().events == [.failed(.boom)])

        let current = CurrentValueSubject<Int, Failure>(1)
        current.complete()
        #expect(current.record().events == [.value(1), .completed])

        let replay = ReplaySubject<Int, Failure>(bufferSize: 2)
        [1, 2, 3].forEach(replay.send)
        replay.complete()
        #expect(replay.record().events == [.value(2), .value(3), .completed])
    }

    // Rule 8: hot sources do not deliver the value in flight to subscribers added during it.
    @Test("8. a subscriber added during a delivery does not get the value in flight")
    func noValueInFlightForNewSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        let late = Locked<Recorder<Int, Never>?>(nil)
        subject.subscribe(onValue: { value in
            if value == 1 { late.withLock { $0 = subject.record() } }
        })
        subject.subscribe(onValue: { _ in })
        subject.send(1)
        subject.send(2)
        #expect(late.withLock { $0 }?.values == [2])
    }

    @Test("8. a replaying subscriber added during a delivery gets the stored value once, then later ones")
    func replayingSubscriberDuringDelivery() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let late = Locked<Recorder<Int, Never>?>(nil)
        subject.subscribe(onValue: { value in
            if value == 1 {
                subject.send(2)
                late.withLock { $0 = subject.record() }
            }
        })
        subject.send(1)
        subject.send(3)
        #expect(late.withLock { $0 }?.values == [2, 3])
    }

    // Rule 9: weak-target subscriptions.
    @Test("9. subscribe(with:) holds the object weakly and ends once it is gone")
    func weakTarget() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Log<Int>()
        weak var weakToken: Token?
        var subscription: (any Disposable)?
        do {
            let token = Token()
            weakToken = token
            subscription = subject.subscribe(with: token) { _, value in log.append(value) }
            subject.send(1)
        }
        #expect(weakToken == nil)
        subject.send(2)
        #expect(log.elements == [1])
        #expect(subscription?.isDisposed == true)
        #expect(subject.subscriberCount == 0)
    }

    // Rule 10: no leaks.
    @Test("10. dispose releases every closure and detaches from the subject, through operators too")
    func disposeReleasesEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        let subscription: any Disposable
        do {
            let token = Token()
            weakToken = token
            subscription = subject.signal
                .map { $0 + 1 }
                .flatMap { _ in other.signal }
                .combineLatest(with: other.signal)
                .subscribe(onValue: { _ in _ = token })
            subject.send(1)
        }
        #expect(weakToken != nil)
        #expect(subject.subscriberCount == 1)
        subscription.dispose()
        #expect(weakToken == nil)
        #expect(subject.subscriberCount == 0)
        #expect(other.subscriberCount == 0)
    }

    @Test("10. a subject released while subscribed does not keep itself alive")
    func subjectIsNotRetainedBySubscriptions() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var subscription: (any Disposable)?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            subscription = subject.subscribe(onValue: { _ in })
        }
        #expect(weakSubject == nil)
        subscription?.dispose()
    }

    // Rule 11: Sendable — checked by the compiler (Swift 6 mode) and by TSan in .ci/run.
    @Test("11. signals, subjects and disposables cross tasks; delivery under a Task group is race-free")
    func sendableAcrossTasks() async {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.signal.map { $0 * 2 }.record()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for n in 0..<250 { subject.send(task * 1_000 + n) } }
            }
        }
        #expect(await recorder.events(count: 1_000))
        #expect(Set(recorder.values).count == 1_000)
        recorder.subscription.dispose()
    }
}

extension Signal {
    /// Test helper: combineLatest as a method.
    func combineLatest<Other>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        .combineLatest(self, other)
    }
}
