import Signals
import SignalsTesting
import Testing

// The SignalsTesting overview's test, as printed (the README's "Testing your code" too).
@Test func searchWaitsForTheUserToPause() {
    let scheduler = TestScheduler()
    let text = PassthroughSubject<String, Never>()
    let recorder = text.signal.debounce(for: .milliseconds(300), on: scheduler).record()
    text.send("s")
    text.send("sw")
    scheduler.advance(by: .milliseconds(300))
    #expect(recorder.values == ["sw"])
}

// "Getting Started": Test.
@Test func debounceInVirtualTime() {
    let input = PassthroughSubject<Int, Never>()
    let scheduler = TestScheduler()
    let recorder = input.signal.debounce(for: .seconds(1), on: scheduler).record()
    input.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
}
