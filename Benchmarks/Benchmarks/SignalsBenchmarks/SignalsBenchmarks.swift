import Benchmark
import MallocStats
import OpenCombine
import Signals

// Signals against OpenCombine 0.14.0, same shapes, same run. Each benchmark iteration performs a
// fixed number of operations (see `compare.py`, which turns the results into ns per operation and
// ratios). Set-up and tear-down happen outside `startMeasurement()`/`stopMeasurement()`.

/// A sink the optimizer cannot remove.
final class Sink: @unchecked Sendable {
    // @unchecked: written by one benchmark thread at a time; only its address escapes.
    var total = 0
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )
    chainBenchmarks()
    fanOutBenchmarks()
    subscribeDisposeBenchmarks()
    memoryBenchmarks()
    subscribeScalingBenchmarks()
}

/// (a) CurrentValueSubject → map → filter → subscriber: 1,000 sends per iteration.
func chainBenchmarks() {
    Benchmark("a chain 1000 events • Signals") { benchmark in
        let sink = Sink()
        let subject = Signals.CurrentValueSubject<Int, Never>(0)
        let subscription = subject.signal.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.subscribe(onValue: { sink.total &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<1_000 { subject.send(value) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sink.total)
    }
    Benchmark("a chain 1000 events • OpenCombine") { benchmark in
        let sink = Sink()
        let subject = OpenCombine.CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { sink.total &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<1_000 { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(sink.total)
    }
}

/// (b) One subject, 1,000 subscribers: 10 sends per iteration = 10,000 deliveries.
func fanOutBenchmarks() {
    Benchmark("b fan-out 10000 deliveries • Signals") { benchmark in
        let sink = Sink()
        let subject = Signals.PassthroughSubject<Int, Never>()
        let subscriptions = (0..<1_000).map { _ in subject.subscribe(onValue: { sink.total &+= $0 }) }
        benchmark.startMeasurement()
        for value in 0..<10 { subject.send(value) }
        benchmark.stopMeasurement()
        subscriptions.forEach { $0.dispose() }
        blackHole(sink.total)
    }
    Benchmark("b fan-out 10000 deliveries • OpenCombine") { benchmark in
        let sink = Sink()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let cancellables = (0..<1_000).map { _ in subject.sink { sink.total &+= $0 } }
        benchmark.startMeasurement()
        for value in 0..<10 { subject.send(value) }
        benchmark.stopMeasurement()
        cancellables.forEach { $0.cancel() }
        blackHole(sink.total)
    }
}

/// (c) Subscribe + dispose on a replaying subject: 1,000 pairs per iteration.
func subscribeDisposeBenchmarks() {
    Benchmark("c subscribe+dispose 1000 pairs • Signals") { benchmark in
        let sink = Sink()
        let subject = Signals.CurrentValueSubject<Int, Never>(1)
        benchmark.startMeasurement()
        for _ in 0..<1_000 {
            subject.subscribe(onValue: { sink.total &+= $0 }).dispose()
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
    Benchmark("c subscribe+dispose 1000 pairs • OpenCombine") { benchmark in
        let sink = Sink()
        let subject = OpenCombine.CurrentValueSubject<Int, Never>(1)
        benchmark.startMeasurement()
        for _ in 0..<1_000 {
            subject.sink { sink.total &+= $0 }.cancel()
        }
        benchmark.stopMeasurement()
        blackHole(sink.total)
    }
}

/// (d) Heap bytes per live subscription, with 100,000 live on one subject.
func memoryBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .custom("heap bytes per subscription")],
        warmupIterations: 1,
        maxIterations: 5
    )
    Benchmark("d memory 100000 live • Signals", configuration: configuration) { benchmark in
        let sink = Sink()
        let subject = Signals.PassthroughSubject<Int, Never>()
        var subscriptions: [any Signals.Disposable] = []
        subscriptions.reserveCapacity(100_000)
        let before = malloc_stats_bytes_in_use()
        for _ in 0..<100_000 { subscriptions.append(subject.subscribe(onValue: { sink.total &+= $0 })) }
        let after = malloc_stats_bytes_in_use()
        benchmark.measurement(.custom("heap bytes per subscription"), (after - before) / 100_000)
        subscriptions.forEach { $0.dispose() }
    }
    Benchmark("d memory 100000 live • OpenCombine", configuration: configuration) { benchmark in
        let sink = Sink()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(100_000)
        let before = malloc_stats_bytes_in_use()
        for _ in 0..<100_000 { cancellables.append(subject.sink { sink.total &+= $0 }) }
        let after = malloc_stats_bytes_in_use()
        benchmark.measurement(.custom("heap bytes per subscription"), (after - before) / 100_000)
        cancellables.forEach { $0.cancel() }
    }
}

/// (e) Subscribe cost with 1,000 and with 100,000 live subscriptions: 1,000 subscribes per
/// iteration. The live subscriptions are made once, in `setup`, and each iteration disposes
/// only its own 1,000 afterwards, so the heap is in the same state for every iteration.
func subscribeScalingBenchmarks() {
    for live in [1_000, 100_000] {
        let signals = LiveSignalsSubscriptions()
        Benchmark(
            "e subscribe 1000 at \(live) live • Signals",
            closure: { benchmark in
                var added: [any Signals.Disposable] = []
                added.reserveCapacity(1_000)
                benchmark.startMeasurement()
                for _ in 0..<1_000 { added.append(signals.subject.subscribe(onValue: { signals.sink.total &+= $0 })) }
                benchmark.stopMeasurement()
                added.reversed().forEach { $0.dispose() }
            },
            setup: { signals.fill(live) },
            teardown: { signals.empty() }
        )
        let openCombine = LiveOpenCombineSubscriptions()
        Benchmark(
            "e subscribe 1000 at \(live) live • OpenCombine",
            closure: { benchmark in
                var added: [AnyCancellable] = []
                added.reserveCapacity(1_000)
                benchmark.startMeasurement()
                for _ in 0..<1_000 { added.append(openCombine.subject.sink { openCombine.sink.total &+= $0 }) }
                benchmark.stopMeasurement()
                added.reversed().forEach { $0.cancel() }
            },
            setup: { openCombine.fill(live) },
            teardown: { openCombine.empty() }
        )
    }
}

/// Live Signals subscriptions kept for the duration of one (e) benchmark.
final class LiveSignalsSubscriptions: @unchecked Sendable {
    // @unchecked: used by one benchmark thread at a time (setup, iterations, teardown in turn).
    let subject = Signals.PassthroughSubject<Int, Never>()
    let sink = Sink()
    var subscriptions: [any Signals.Disposable] = []

    func fill(_ count: Int) {
        subscriptions = (0..<count).map { _ in subject.subscribe(onValue: { [sink] in sink.total &+= $0 }) }
    }

    func empty() {
        subscriptions.forEach { $0.dispose() }
        subscriptions = []
    }
}

/// Live OpenCombine subscriptions kept for the duration of one (e) benchmark.
final class LiveOpenCombineSubscriptions: @unchecked Sendable {
    // @unchecked: used by one benchmark thread at a time (setup, iterations, teardown in turn).
    let subject = OpenCombine.PassthroughSubject<Int, Never>()
    let sink = Sink()
    var subscriptions: [AnyCancellable] = []

    func fill(_ count: Int) {
        subscriptions = (0..<count).map { _ in subject.sink { [sink] in sink.total &+= $0 } }
    }

    func empty() {
        subscriptions.forEach { $0.cancel() }
        subscriptions = []
    }
}
