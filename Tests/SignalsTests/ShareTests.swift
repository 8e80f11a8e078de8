import Signals
import SignalsTesting
import Testing

@Suite("share(replay:)")
struct ShareTests {
    @Test func oneUpstreamSubscriptionForManySubscribers() {
        let subscriptions = Counter()
        let source = PassthroughSubject<Int, Never>()
        let shared = source.signal.handleEvents(onSubscribe: { subscriptions.increment() }).share(replay: 1)
        let first = shared.record()
        source.send(1)
        let second = shared.record()
        source.send(2)
        #expect(subscriptions.count == 1)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func disconnectsWhenTheLastSubscriberLeavesAndRestartsFresh() {
        let subscriptions = Counter()
        let source = PassthroughSubject<Int, Never>()
        let shared = source.signal.handleEvents(onSubscribe: { subscriptions.increment() }).share(replay: 1)
        let first = shared.record()
        source.send(1)
        first.subscription.dispose()
        #expect(source.subscriberCount == 0)
        let again = shared.record()
        #expect(subscriptions.count == 2)
        #expect(again.values.isEmpty)
        source.send(2)
        #expect(again.values == [2])
    }

    @Test func lateSubscribersGetTheBufferAndTheTerminalEvent() {
        let shared = Signal<Int, Never>.from([1, 2, 3]).share(replay: 2)
        let keepAlive = shared.record()
        #expect(keepAlive.events == [.value(1), .value(2), .value(3), .completed])
        #expect(shared.record().events == [.value(2), .value(3), .completed])
    }

    @Test func shareWithoutReplay() {
        let source = PassthroughSubject<Int, Never>()
        let shared = source.signal.share()
        let first = shared.record()
        source.send(1)
        let second = shared.record()
        source.send(2)
        #expect(first.values == [1, 2])
        #expect(second.values == [2])
    }
}
