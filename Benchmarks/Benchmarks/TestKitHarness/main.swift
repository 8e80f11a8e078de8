// What SignalStoreTesting costs a test suite, against its goals (issue 22):
//   - creating a TestStore with the example migrations: ≤ 10 ms;
//   - expectChanges around one write, minus the bare write: ≤ 2 ms per assertion (so a
//     1,000-test suite pays ≤ 2 s).
// Usage (from Benchmarks/): swift build -c release --product TestKitHarness && .build/release/TestKitHarness
import BenchmarkModels
import Foundation
import SignalStoreTesting

/// The median of `samples` in milliseconds.
func median(_ samples: [Duration]) -> Double {
    let sorted = samples.sorted()
    let middle = sorted[sorted.count / 2]
    return Double(middle.components.seconds) * 1e3 + Double(middle.components.attoseconds) / 1e15
}

let clock = ContinuousClock()
let rounds = 200

var creations: [Duration] = []
for _ in 0..<rounds {
    creations.append(clock.measure { _ = try! TestStore(migrations: packageMigrations) })
}

let store = try TestStore(migrations: packageMigrations)
try store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 0, 'open')")
let order = try store.find(BenchOrder.self, id: Int64(1))!
var bare: [Duration] = []
var expected: [Duration] = []
var value = 0
for _ in 0..<rounds {
    value += 1
    let plain = value
    bare.append(clock.measure { order.purchaseNum = plain })
    value += 1
    let next = value
    let start = clock.now
    try await store.expectChanges([.update(\BenchOrder.purchaseNum, id: 1, from: next - 1, to: next)]) {
        order.purchaseNum = next
    }
    expected.append(clock.now - start)
}

let creation = median(creations)
let overhead = median(expected) - median(bare)
print("| test kit (median of \(rounds), ms) | measured | goal | met |")
print("|---|---:|---:|:---:|")
print("| `TestStore(migrations:)` with the example migrations | \(String(format: "%.2f", creation)) | ≤ 10 | \(creation <= 10 ? "yes" : "no") |")
print("| `expectChanges` around one write, minus the bare write (\(String(format: "%.3f", median(bare))) ms) | \(String(format: "%.2f", overhead)) | ≤ 2 | \(overhead <= 2 ? "yes" : "no") |")
