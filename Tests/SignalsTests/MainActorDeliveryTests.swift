import Dispatch
import Signals
import Testing

/// `subscribeOnMain`, `bind(to:_:)` and `MainScheduler`: main-actor delivery that is inline when
/// it can be and in order when it cannot.
@Suite struct MainActorDeliveryTests {
    enum Failure: Error, Equatable { case boom }

    @MainActor @Test func theCurrentValueArrivesBeforeSubscribeReturns() {
        let subject = CurrentValueSubject<Int, Never>(1)
        var received: [Int] = []
        let subscription = subject.signal.subscribeOnMain { received.append($0) }
        #expect(received == [1])
        subject.send(2)
        #expect(received == [1, 2], "a value sent on the main actor with nothing waiting is delivered at once")
        subscription.dispose()
        subject.send(3)
        #expect(received == [1, 2])
    }

    @MainActor @Test func valuesFromOtherThreadsArriveOnTheMainActorInOrder() async {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var offMain = 0
        let subscription = subject.signal.subscribeOnMain { value in
            if !MainScheduler.isOnMainQueue { offMain += 1 }
            received.append(value)
        }
        DispatchQueue.global().async {
            for value in 1...1_000 { subject.send(value) }
        }
        #expect(await eventually { received.count == 1_000 })
        #expect(received == Array(1...1_000))
        #expect(offMain == 0)
        subscription.dispose()
    }

    @MainActor @Test func completionAndFailureArriveOnTheMainActor() async {
        let subject = PassthroughSubject<Int, Failure>()
        var events: [String] = []
        let subscription = subject.signal.subscribeOnMain(
            onValue: { events.append("value \($0)") },
            onFailure: { _ in events.append("failed") },
            onCompleted: { events.append("completed") }
        )
        DispatchQueue.global().async {
            subject.send(1)
            subject.fail(.boom)
        }
        #expect(await eventually { events.count == 2 })
        #expect(events == ["value 1", "failed"])
        subscription.dispose()
    }

    /// Each subscription has its own line: events waiting for one never make another's replayed
    /// value late.
    @MainActor @Test func waitingEventsOfOneSubscriptionDoNotDelayAnothersReplay() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        var first: [Int] = []
        let firstSubscription = subject.signal.subscribeOnMain { first.append($0) }
        // Sent on another thread while the main actor waits: queued for the main queue.
        DispatchQueue.global().sync { subject.send(2) }
        #expect(first == [1])
        var second: [Int] = []
        let secondSubscription = subject.signal.subscribeOnMain { second.append($0) }
        #expect(second == [2])
        #expect(await eventually { first == [1, 2] })
        firstSubscription.dispose()
        secondSubscription.dispose()
    }

    @MainActor @Test func disposingDropsWhatIsStillWaiting() async throws {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let subscription = subject.signal.subscribeOnMain { received.append($0) }
        DispatchQueue.global().sync { subject.send(1) }
        subscription.dispose()
        // The main queue works through what was queued before this block: the value, had it
        // been delivered after all.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { done.resume() } }
        #expect(received.isEmpty)
    }

    @MainActor @Test func anActionScheduledFromAnActionRunsAfterIt() {
        let scheduler = MainScheduler()
        let log = Log<String>()
        scheduler.schedule {
            log.append("outer begins")
            scheduler.schedule { log.append("inner") }
            log.append("outer ends")
        }
        #expect(log.elements == ["outer begins", "outer ends", "inner"])
    }

    @MainActor @Test func delayedActionsRunOnTheMainQueueUnlessCancelled() async {
        let scheduler = MainScheduler()
        let log = Log<String>()
        let start = scheduler.now
        scheduler.schedule(after: .milliseconds(20)) {
            log.append(MainScheduler.isOnMainQueue ? "late on main" : "late elsewhere")
        }
        let cancelled = scheduler.schedule(after: .milliseconds(5)) { log.append("cancelled") }
        cancelled.dispose()
        scheduler.schedule { log.append("now") }
        #expect(log.elements == ["now"])
        #expect(await eventually { log.count == 2 })
        #expect(log.elements == ["now", "late on main"])
        #expect(scheduler.now - start >= .milliseconds(20))
    }

    @MainActor @Test func bindingSetsTheTargetAndEndsWhenItIsReleased() async {
        let count = MutableProperty(1)
        weak var released: Badge?
        do {
            let badge = Badge(count: count)
            released = badge
            #expect(badge.text == "× 1")
            count.value = 2
            #expect(badge.text == "× 2")
        }
        #expect(released == nil, "the binding kept its target alive")
        count.value = 3   // finds the target gone and ends the binding
        #expect(await eventually { count.subscriberCount == 0 })
    }

    /// The examples in the documentation of `subscribeOnMain`, `bind(to:_:)` and
    /// `MainScheduler`, as written there.
    @MainActor @Test func theDocumentationExamplesWork() async {
        let status = MutableProperty("new")
        let statusView = StatusView(status: status)
        #expect(statusView.shown == "new")
        status.value = "paid"
        #expect(statusView.shown == "paid")

        let label = MutableProperty("")
        let count = MutableProperty(1)
        let binding = count.signal
            .map { "× \($0)" }
            .observe(on: MainScheduler.shared)
            .bind(to: label)
        #expect(label.value == "× 1")
        count.value = 4
        #expect(label.value == "× 4")
        binding.dispose()
    }
}

/// The examples in the documentation of `QueueScheduler` and `observe(on:)`, as written there
/// (they print; the tests check that they compile and run in Swift 6 mode).
@Suite struct SchedulerDocumentationExampleTests {
    @Test func theQueueSchedulerExampleRuns() async {
        let sizes = MutableProperty(64)
        let thumbnails = QueueScheduler(label: "thumbnails")
        let subscription = sizes.signal
            .observe(on: thumbnails)
            .subscribe(onValue: { size in print("rendering at", size) })
        thumbnails.queue.sync {}
        subscription.dispose()
    }

    @Test func theObserveOnExampleRuns() {
        let counts = MutableProperty(0)
        let subscription = counts.signal
            .observe(on: QueueScheduler(label: "log"))
            .subscribe(onValue: { print("count", $0) })
        subscription.dispose()
    }
}

/// The example in the documentation of `subscribe(with:_:)`, as written there.
@Suite struct SubscribeWithDocumentationExampleTests {
    @Test func theExampleRunsAndHoldsItsObjectWeakly() {
        let counter = MutableProperty(1)
        weak var released: AuditLog?
        do {
            let log = AuditLog()
            released = log
            counter.signal.subscribe(with: log) { log, count in log.record(count) }
        }
        #expect(released == nil)
        counter.value = 2   // finds the log gone and ends the subscription
        #expect(counter.subscriberCount == 0)
    }
}

final class AuditLog: Sendable {
    func record(_ count: Int) { print("count is now", count) }
}

/// From the documentation of `bind(to:_:)`, with a count property instead of a model.
@MainActor final class Badge {
    var text = ""
    private let bag = DisposeBag()

    init(count: MutableProperty<Int>) {
        count.signal.map { "× \($0)" }
            .bind(to: self, \.text)
            .disposed(by: bag)
    }
}

/// From the documentation of `subscribeOnMain`.
@MainActor final class StatusView {
    private(set) var shown = ""
    private let bag = DisposeBag()

    init(status: MutableProperty<String>) {
        status.signal
            .subscribeOnMain { [weak self] status in self?.show(status) }
            .disposed(by: bag)
    }

    func show(_ status: String) { shown = status }
}
