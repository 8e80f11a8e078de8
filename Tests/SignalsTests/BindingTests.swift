import Signals
import SignalsTesting
import Testing

@Suite("Bindings")
struct BindingTests {
    @Test func bindToProperty() {
        let source = PassthroughSubject<String, Never>()
        let target = MutableProperty("")
        let binding = source.signal.bind(to: target)
        source.send("a")
        #expect(target.value == "a")
        binding.dispose()
        source.send("b")
        #expect(target.value == "a")
    }

    @Test func bindingDoesNotKeepThePropertyAlive() {
        let source = PassthroughSubject<Int, Never>()
        weak var weakTarget: MutableProperty<Int>?
        do {
            let target = MutableProperty(0)
            weakTarget = target
            source.signal.bind(to: target)
        }
        #expect(weakTarget == nil)
        source.send(1)
    }

    @Test func twoWayBindingSyncsBothWaysWithoutLooping() {
        let model = MutableProperty("Ann")
        let field = MutableProperty("")
        let modelWrites = Counter()
        let fieldWrites = Counter()
        model.signal.skip(1).subscribe(onValue: { _ in modelWrites.increment() })
        field.signal.skip(1).subscribe(onValue: { _ in fieldWrites.increment() })
        let binding = bind(model, field)
        #expect(field.value == "Ann")
        field.value = "Bob"
        #expect(model.value == "Bob")
        model.value = "Cy"
        #expect(field.value == "Cy")
        // Each change crossed once: no ping-pong.
        #expect(modelWrites.count == 2)
        #expect(fieldWrites.count == 3)
        binding.dispose()
        field.value = "Dee"
        #expect(model.value == "Cy")
    }

    /// Regression: both directions used to re-send stale values and ping-pong forever.
    @Test(.timeLimit(.minutes(1)))
    func twoWayBindingSettlesUnderConcurrentWrites() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let binding = bind(a, b)
        for _ in 0..<20 {
            onThreads(2) { side in
                for n in 0..<1_000 { (side == 0 ? a : b).value = side * 10_000 + n }
            }
        }
        #expect(waitUntil { a.value == b.value })
        binding.dispose()
    }
}
