import SignalsTesting
import Testing

// The README's "Testing your code", as printed.
@Test func searchWaitsForTheTypingToPause() {
    let scheduler = TestScheduler()                 // virtual time
    let input = PassthroughSubject<String, Never>()
    let recorder = input.signal.debounce(for: .milliseconds(300), on: scheduler).record()
    input.send("s")
    input.send("sw")
    scheduler.advance(by: .milliseconds(300))
    #expect(recorder.values == ["sw"])
}
