import Signals

// The Signals catalog's Swift, as printed: the overview (Signals.md) and "Getting Started".
// What a snippet takes from its article's prose (a search function, where results are shown)
// is declared next to it, once.

// Signals.md
let count = MutableProperty(0)
let label = count.signal.map { "\($0) items" }
let subscription = label.subscribe(onValue: { print($0) })   // "0 items"
count.value = 3                                              // "3 items"
subscription.dispose()

// Getting Started: Make a source
let searchText = MutableProperty("")
let taps = PassthroughSubject<Void, Never>()

let countdown = Signal<Int, Never> { subscriber in
    for n in (1...3).reversed() {
        if subscriber.isDisposed { break }
        subscriber.send(n)
    }
    subscriber.complete()
    return AnyDisposable()   // nothing to release
}
let counted = countdown.subscribe(onValue: { print("countdown \($0)") })

// Getting Started: Transform (the article's `search`)
@Sendable func search(_ text: String) -> Signal<[String], Never> {
    .just(["\(text) result"])
}

let results = searchText.signal
    .removeDuplicates()
    .debounce(for: .milliseconds(300), on: MainScheduler.shared)
    .flatMapLatest { text in search(text) }

// Getting Started: Subscribe and dispose (the article's `show`)
func show(_ results: [String]) { print(results) }

let bag = DisposeBag()
results.subscribe(onValue: { show($0) }).disposed(by: bag)

// Getting Started: Views on the main actor
let badge = BadgeView(count: count)
print(badge.text)   // "× 3"

// Getting Started: Async/await (count's values until a sequence of three ends)
let asyncSequence = AsyncStream<Int> { continuation in
    for n in 1...3 { continuation.yield(n) }
    continuation.finish()
}
Task { @MainActor in
    for await value in count.signal.values { print(value) }
}
let signal = Signal(asyncSequence)
for await value in signal.values { print("from the async sequence: \(value)") }
