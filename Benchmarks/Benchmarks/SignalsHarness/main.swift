import Dispatch
import Foundation
import MallocStats
@preconcurrency import OpenCombine
@preconcurrency import OpenCombineDispatch
import SignalStore
import BenchmarkModels
import Synchronization

// Signals' hot path and main-actor delivery against OpenCombine 0.14.0, in one plain release
// executable: plain loops, wall clock, rounds alternating the two libraries, medians.
//
//   swift run -c release SignalsHarness [--quick] [--only hot|main|chain|fanout|pairs|heap|floor]
//
// hot:  (a) 1,000,000 sends through CurrentValueSubject → map → filter → subscribe;
//       (b) one subject, 1,000 subscribers; (c) subscribe + dispose on a replaying subject;
//       (d) heap per live subscription (100,000 live); (e) subscribe cost at 1,000 and 100,000 live;
//       the floor: what the atomic operations, locks and allocations that the signal contract
//       itself requires cost on this machine, measured in the same run, against the peer's time.
// main: (f) a value sent on a background thread to a main-actor callback, p50/p99, Signals'
//       subscribeOnMain against OpenCombine's receive(on: DispatchQueue.main) + sink;
//       (g) a background store commit to a main-actor callback, p50/p99;
//       (h) a main-actor model write with 3 bound views against the same write with 3 plain
//       subscribers.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1] }
let rounds = quick ? 3 : 7

/// A sink the optimizer cannot remove.
final class Total: @unchecked Sendable {
    // @unchecked: written by one benchmark thread at a time; read after the loop ends.
    var value = 0
}

/// Wall-clock nanoseconds that `body` takes, divided by `operations`.
func nanoseconds(per operations: Int, _ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(operations)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Runs `signals` and `peer` alternately for `rounds` rounds; returns their medians.
func compare(_ signals: () -> Double, _ peer: () -> Double) -> (Double, Double) {
    var mine: [Double] = [], theirs: [Double] = []
    for _ in 0..<rounds {
        mine.append(signals())
        theirs.append(peer())
    }
    return (median(mine), median(theirs))
}

/// The table's rows; appended to by the one thread that runs the benchmarks, in turn.
nonisolated(unsafe) var rows: [(String, String, String, String, String, String)] = []

func row(_ name: String, _ mine: Double, _ theirs: Double?, unit: String, goal: String, met: (Double) -> Bool) {
    let ratio = theirs.map { mine / $0 }
    let format = { (value: Double) in value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value) }
    rows.append((
        name, "\(format(mine)) \(unit)", theirs.map { "\(format($0)) \(unit)" } ?? "—",
        ratio.map { String(format: "%.2f", $0) } ?? "—", goal, goal == "—" ? "—" : met(ratio ?? mine) ? "yes" : "no"
    ))
}

// MARK: - Hot path

/// The measured loops of (a), as functions of their own so that callgrind can count just them
/// (`--toggle-collect`).
@inline(never) func signalsChainLoop(_ subject: Signals.CurrentValueSubject<Int, Never>, sends: Int) {
    for value in 0..<sends { subject.send(value) }
}

@inline(never) func openCombineChainLoop(_ subject: OpenCombine.CurrentValueSubject<Int, Never>, sends: Int) {
    for value in 0..<sends { subject.send(value) }
}

func chain() {
    let sends = quick ? 200_000 : 1_000_000
    let (mine, theirs) = compare({
        let total = Total()
        let subject = Signals.CurrentValueSubject<Int, Never>(0)
        let subscription = subject.signal.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.subscribe(onValue: { total.value &+= $0 })
        defer { subscription.dispose() }
        return nanoseconds(per: sends) { signalsChainLoop(subject, sends: sends) }
    }, {
        let total = Total()
        let subject = OpenCombine.CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { total.value &+= $0 }
        defer { cancellable.cancel() }
        return nanoseconds(per: sends) { openCombineChainLoop(subject, sends: sends) }
    })
    peerTimes["a"] = theirs
    row("(a) CurrentValueSubject → map → filter → subscribe, per send", mine, theirs, unit: "ns", goal: "≤ 0.20", met: { $0 <= 0.20 })
}

@inline(never) func signalsFanOutLoop(_ subject: Signals.PassthroughSubject<Int, Never>, sends: Int) {
    for value in 0..<sends { subject.send(value) }
}

@inline(never) func signalsPairsLoop(_ subject: Signals.CurrentValueSubject<Int, Never>, _ total: Total, pairs: Int) {
    for _ in 0..<pairs { subject.subscribe(onValue: { total.value &+= $0 }).dispose() }
}

func fanOut() {
    let sends = quick ? 200 : 1_000
    let (mine, theirs) = compare({
        let total = Total()
        let subject = Signals.PassthroughSubject<Int, Never>()
        let subscriptions = (0..<1_000).map { _ in subject.subscribe(onValue: { total.value &+= $0 }) }
        defer { subscriptions.forEach { $0.dispose() } }
        return nanoseconds(per: sends * 1_000) { signalsFanOutLoop(subject, sends: sends) }
    }, {
        let total = Total()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let cancellables = (0..<1_000).map { _ in subject.sink { total.value &+= $0 } }
        defer { cancellables.forEach { $0.cancel() } }
        return nanoseconds(per: sends * 1_000) { for value in 0..<sends { subject.send(value) } }
    })
    peerTimes["b"] = theirs
    row("(b) one subject, 1,000 subscribers, per delivery", mine, theirs, unit: "ns", goal: "≤ 0.20", met: { $0 <= 0.20 })
}

func subscribeDispose() {
    let pairs = quick ? 50_000 : 200_000
    let (mine, theirs) = compare({
        let total = Total()
        let subject = Signals.CurrentValueSubject<Int, Never>(1)
        return nanoseconds(per: pairs) { signalsPairsLoop(subject, total, pairs: pairs) }
    }, {
        let total = Total()
        let subject = OpenCombine.CurrentValueSubject<Int, Never>(1)
        return nanoseconds(per: pairs) { for _ in 0..<pairs { subject.sink { total.value &+= $0 }.cancel() } }
    })
    peerTimes["c"] = theirs
    row("(c) subscribe + dispose, replaying subject, per pair", mine, theirs, unit: "ns", goal: "≤ 0.10", met: { $0 <= 0.10 })
}

func heap() {
    let live = 100_000
    let (mine, theirs) = compare({
        let total = Total()
        let subject = Signals.PassthroughSubject<Int, Never>()
        var subscriptions: [any Signals.Disposable] = []
        subscriptions.reserveCapacity(live)
        let before = malloc_stats_bytes_in_use()
        for _ in 0..<live { subscriptions.append(subject.subscribe(onValue: { total.value &+= $0 })) }
        let bytes = Double(malloc_stats_bytes_in_use() - before) / Double(live)
        subscriptions.forEach { $0.dispose() }
        return bytes
    }, {
        let total = Total()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(live)
        let before = malloc_stats_bytes_in_use()
        for _ in 0..<live { cancellables.append(subject.sink { total.value &+= $0 }) }
        let bytes = Double(malloc_stats_bytes_in_use() - before) / Double(live)
        cancellables.forEach { $0.cancel() }
        return bytes
    })
    row("(d) heap per live subscription, 100,000 live", mine, theirs, unit: "B", goal: "≤ 0.50", met: { $0 <= 0.50 })
}

func growth() {
    func signalsSubscribe(live: Int) -> Double {
        let total = Total()
        let subject = Signals.PassthroughSubject<Int, Never>()
        let existing = (0..<live).map { _ in subject.subscribe(onValue: { total.value &+= $0 }) }
        var added: [any Signals.Disposable] = []
        added.reserveCapacity(1_000)
        let cost = nanoseconds(per: 1_000) { for _ in 0..<1_000 { added.append(subject.subscribe(onValue: { total.value &+= $0 })) } }
        added.reversed().forEach { $0.dispose() }
        existing.forEach { $0.dispose() }
        return cost
    }
    func openCombineSubscribe(live: Int) -> Double {
        let total = Total()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let existing = (0..<live).map { _ in subject.sink { total.value &+= $0 } }
        var added: [AnyCancellable] = []
        added.reserveCapacity(1_000)
        let cost = nanoseconds(per: 1_000) { for _ in 0..<1_000 { added.append(subject.sink { total.value &+= $0 }) } }
        added.reversed().forEach { $0.cancel() }
        existing.forEach { $0.cancel() }
        return cost
    }
    let (small, smallPeer) = compare({ signalsSubscribe(live: 1_000) }, { openCombineSubscribe(live: 1_000) })
    let (large, largePeer) = compare({ signalsSubscribe(live: 100_000) }, { openCombineSubscribe(live: 100_000) })
    row("(e) subscribe with 1,000 live", small, smallPeer, unit: "ns", goal: "—", met: { _ in false })
    row("(e) subscribe with 100,000 live", large, largePeer, unit: "ns", goal: "—", met: { _ in false })
    rows.append(("(e) growth 1k → 100k live", String(format: "%.2f×", large / small), String(format: "%.2f×", largePeer / smallPeer), "—", "≤ 1.5×", large / small <= 1.5 ? "yes" : "no"))
}

// MARK: - The contract's floor

/// OpenCombine's medians of (a)–(c) in this run, for the floor rows.
nonisolated(unsafe) var peerTimes: [String: Double] = [:]

/// One word that two compare-and-swaps per round take and give back, as a subscription's
/// serialized section and a subject's delivery round are entered and left.
final class Flag: Sendable {
    let word = Atomic<Int>(0)
}

/// A 48-byte object, as a subscription's smallest part.
final class Block {
    var words: (Int, Int, Int, Int) = (0, 0, 0, 0)
}

/// Where `allocationCost` keeps its newest object, so that the optimizer must make each one and
/// each assignment frees the one before.
nonisolated(unsafe) var newestBlock: Block?

/// Nanoseconds per uncontended compare-and-swap, taken and given back as a flag is.
func compareAndSwapCost(rounds count: Int) -> Double {
    let flag = Flag()
    return nanoseconds(per: 2 * count) {
        for _ in 0..<count {
            _ = flag.word.compareExchange(expected: 0, desired: 1, ordering: .acquiring)
            _ = flag.word.compareExchange(expected: 1, desired: 0, ordering: .releasing)
        }
    }
}

/// Nanoseconds per uncontended pthread mutex lock and unlock, the lock of every subject.
func lockPairCost(pairs count: Int) -> Double {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    defer {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    return nanoseconds(per: count) {
        for _ in 0..<count {
            pthread_mutex_lock(mutex)
            pthread_mutex_unlock(mutex)
        }
    }
}

/// Nanoseconds to allocate and free one small object.
func allocationCost(objects count: Int) -> Double {
    nanoseconds(per: count) {
        for _ in 0..<count { newestBlock = Block() }
    }
}

/// The least that (a)–(c) can cost while keeping the signal contract, from primitives measured
/// in this run, each against the peer's time for the whole operation:
/// - (a) a send: 4 compare-and-swaps. The subject's delivery round is entered and left (rule 4:
///   a send from a callback or another thread must see that a round is running and queue), and
///   so is the subscription's serialized section (rule 2: never two callouts at once);
/// - (b) a delivery: 2, the subscription's serialized section entered and left (rule 2);
/// - (c) subscribe + dispose: 1 allocation (the subscription outlives the call), 2 lock pairs
///   (the subscriber list changed consistently with the replayed value, rule 5, and again on
///   dispose), 2 compare-and-swaps (the replay delivered inside the serialized section) and 1
///   more (dispose, idempotent from any thread, rule 6).
func floor() {
    let count = quick ? 2_000_000 : 10_000_000
    var casCosts: [Double] = [], lockCosts: [Double] = [], allocationCosts: [Double] = []
    for _ in 0..<rounds {
        casCosts.append(compareAndSwapCost(rounds: count))
        lockCosts.append(lockPairCost(pairs: count))
        allocationCosts.append(allocationCost(objects: count))
    }
    let (cas, lock, allocation) = (median(casCosts), median(lockCosts), median(allocationCosts))
    rows.append(("floor: one uncontended compare-and-swap", String(format: "%.1f ns", cas), "—", "—", "—", "—"))
    rows.append(("floor: one uncontended lock + unlock (pthread)", String(format: "%.1f ns", lock), "—", "—", "—", "—"))
    rows.append(("floor: one 48-byte object allocated and freed", String(format: "%.1f ns", allocation), "—", "—", "—", "—"))
    let floors: [(String, String, Double, Double)] = [
        ("a", "(a) floor: 4 compare-and-swaps per send", 4 * cas, 0.20),
        ("b", "(b) floor: 2 compare-and-swaps per delivery", 2 * cas, 0.20),
        ("c", "(c) floor: 1 allocation, 2 lock pairs, 3 compare-and-swaps per pair", allocation + 2 * lock + 3 * cas, 0.10),
    ]
    for (key, name, least, goal) in floors {
        guard let peer = peerTimes[key] else { continue }
        // Not a goal of its own: whether the goal is within the contract's reach at all.
        rows.append((
            name, String(format: "%.1f ns", least), String(format: "%.0f ns", peer),
            String(format: "%.2f", least / peer), String(format: "≤ %.2f", goal), least / peer <= goal ? "floor below goal" : "floor above goal"
        ))
    }
}

// MARK: - Main actor

/// One value in flight at a time: a background thread sends, the main-actor callback signals the
/// semaphore with the time it ran; returns latencies in microseconds.
func hopLatencies(samples: Int, send: @escaping @Sendable (Int) -> Void, arrivals: Arrivals) -> [Double] {
    var latencies: [Double] = []
    latencies.reserveCapacity(samples)
    for value in 1...samples {
        let start = ContinuousClock.now
        send(value)
        arrivals.semaphore.wait()
        let (seconds, attoseconds) = (arrivals.last - start).components
        latencies.append(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
    }
    return latencies
}

/// Where main-actor callbacks leave the time they ran.
final class Arrivals: @unchecked Sendable {
    // @unchecked: `last` is written on the main queue before `semaphore` is signalled and read
    // by the waiting thread after it returns from `wait`; the semaphore orders the two.
    let semaphore = DispatchSemaphore(value: 0)
    var last = ContinuousClock.now

    func arrived() {
        last = ContinuousClock.now
        semaphore.signal()
    }
}

/// Runs `body` on the main actor: at once on the main thread, else waiting for it there.
func onMainActor<T: Sendable>(_ body: @escaping @MainActor @Sendable () -> T) -> T {
    MainScheduler.isOnMainQueue ? MainActor.assumeIsolated { body() } : onMain(body)
}

/// Runs `body` on the main actor and waits for it from a background thread.
func onMain<T: Sendable>(_ body: @escaping @MainActor @Sendable () -> T) -> T {
    DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
}

final class Holder<T>: @unchecked Sendable {
    // @unchecked: set on the main queue and read after `DispatchQueue.main.sync` returns.
    var value: T?
}

func mainHop() {
    let samples = quick ? 2_000 : 10_000
    let arrivals = Arrivals()
    let subject = Signals.PassthroughSubject<Int, Never>()
    let subscription = onMain { subject.signal.subscribeOnMain { _ in arrivals.arrived() } }
    let peerSubject = OpenCombine.PassthroughSubject<Int, Never>()
    let cancellable = Holder<AnyCancellable>()
    DispatchQueue.main.sync {
        cancellable.value = peerSubject.receive(on: DispatchQueue.main.ocombine).sink { _ in arrivals.arrived() }
    }
    var mine: [Double] = [], theirs: [Double] = []
    for _ in 0..<rounds {
        mine += hopLatencies(samples: samples / rounds, send: { subject.send($0) }, arrivals: arrivals)
        theirs += hopLatencies(samples: samples / rounds, send: { peerSubject.send($0) }, arrivals: arrivals)
    }
    subscription.dispose()
    cancellable.value?.cancel()
    row("(f) background send → main-actor callback, p50 (vs receive(on: main) + sink)", percentile(mine, 0.5), percentile(theirs, 0.5), unit: "µs", goal: "—", met: { _ in false })
    row("(f) same, p99", percentile(mine, 0.99), percentile(theirs, 0.99), unit: "µs", goal: "—", met: { _ in false })
}

/// A folder for the store benchmarks: in memory (`/dev/shm`) when there is one, so the disk's
/// checkpoints do not decide the numbers.
func scratchFolder() -> URL {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let folder = base.appendingPathComponent("signals-harness-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

func storeHop() throws {
    let samples = quick ? 1_000 : 5_000
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try Store(path: folder.appendingPathComponent("hop.sqlite").path, migrations: packageMigrations)
    let order = BenchOrder(id: 1, purchaseNum: 0, status: "new")
    try store.insert(order)
    let arrivals = Arrivals()
    let subscription = onMain { order.signal(for: \.purchaseNum).subscribeOnMain { _ in arrivals.arrived() } }
    arrivals.semaphore.wait()   // the replayed value
    let latencies = hopLatencies(samples: samples, send: { value in
        _ = try! store.execute("UPDATE orders SET purchase_num = ? WHERE id = 1", arguments: [.integer(Int64(value))])
    }, arrivals: arrivals)
    subscription.dispose()
    store.close()
    row("(g) background store.execute → main-actor callback, p50", percentile(latencies, 0.5), nil, unit: "µs", goal: "—", met: { _ in false })
    row("(g) same, p99", percentile(latencies, 0.99), nil, unit: "µs", goal: "≤ 1,000 µs", met: { $0 <= 1_000 })
}

/// Three views bound on the main actor against three plain subscribers.
@MainActor final class BoundView {
    var count = 0
    var text = ""
    var status = ""
}

/// The measured loops of (h), as functions of their own for callgrind.
@inline(never) func setBound(_ order: BenchOrder, sets: Int, from start: Int) -> Int {
    for next in start + 1...start + sets { order.purchaseNum = next }
    return start + sets
}

@inline(never) func setPlain(_ order: BenchOrder, sets: Int, from start: Int) -> Int {
    // Written differently from `setBound` so that the compiler does not merge the two.
    var next = start
    while next < start + sets {
        next += 1
        order.purchaseNum = next
    }
    return next
}

func boundViews() throws {
    let sets = quick ? 2_000 : 10_000
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try Store(path: folder.appendingPathComponent("views.sqlite").path, migrations: packageMigrations)
    let bound = BenchOrder(id: 1, purchaseNum: 0, status: "new")
    let plain = BenchOrder(id: 2, purchaseNum: 0, status: "new")
    try store.insert(bound)
    try store.insert(plain)
    let result = onMainActor { () -> (Double, Double) in
        let views = [BoundView(), BoundView(), BoundView()]
        let bag = DisposeBag()
        for view in views { bound.signal(for: \.purchaseNum).bind(to: view, \.count).disposed(by: bag) }
        let totals = Total()
        for _ in 0..<3 { plain.signal(for: \.purchaseNum).subscribe(onValue: { totals.value &+= $0 }).disposed(by: bag) }
        var next = 0
        let (mine, theirs) = compare({
            nanoseconds(per: sets) { next = setBound(bound, sets: sets, from: next) } / 1_000
        }, {
            nanoseconds(per: sets) { next = setPlain(plain, sets: sets, from: next) } / 1_000
        })
        precondition(views.allSatisfy { $0.count == bound.purchaseNum })
        bag.dispose()
        return (mine, theirs)
    }
    store.close()
    row("(h) main-actor `order.purchaseNum = n`, 3 bound views (vs 3 plain subscribers)", result.0, result.1, unit: "µs", goal: "≤ 1.10", met: { $0 <= 1.10 })
}

// MARK: - Run

func printTable() {
    print("| measure | Signals/SignalStore | OpenCombine | ratio | goal | met |")
    print("|---|---:|---:|---:|---:|:---:|")
    for (name, mine, theirs, ratio, goal, met) in rows {
        print("| \(name) | \(mine) | \(theirs) | \(ratio) | \(goal) | \(met) |")
    }
}

func runHotPath() {
    switch only {
    case "chain": return chain()
    case "fanout": return fanOut()
    case "pairs": return subscribeDispose()
    case "heap": return heap()
    case "floor":
        chain()
        fanOut()
        subscribeDispose()
        return floor()
    default: break
    }
    chain()
    fanOut()
    subscribeDispose()
    heap()
    growth()
    floor()
}

if let only, ["hot", "chain", "fanout", "pairs", "heap", "floor", "views"].contains(only) {
    // A second thread, as every app has: while a process has one thread, glibc's mutexes skip
    // their atomic instructions (a lock pair took 3 ns instead of 11), which no app would see.
    Thread.detachNewThread { while true { sleep(3_600) } }
    // On the main thread, without Dispatch's main loop, so that valgrind can profile it. (h)
    // runs here too: Dispatch counts the main thread as the main queue before `dispatchMain()`.
    if only == "views" { try! boundViews() } else { runHotPath() }
    printTable()
    exit(0)
}
// The main-actor cases need the main queue running: the benchmarks run on another thread.
DispatchQueue.global().async {
    if only == nil { runHotPath() }
    mainHop()
    try! storeHop()
    try! boundViews()
    printTable()
    exit(0)
}
dispatchMain()
