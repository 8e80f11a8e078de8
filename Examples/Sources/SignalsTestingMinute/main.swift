import SignalsTesting

let scheduler = TestScheduler()                 // virtual time
let input = PassthroughSubject<String, Never>()
let recorder = input.signal.debounce(for: .milliseconds(300), on: scheduler).record()
input.send("s")
input.send("sw")
scheduler.advance(by: .milliseconds(300))
assert(recorder.values == ["sw"])
