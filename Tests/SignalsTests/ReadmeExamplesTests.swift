import Signals
import SignalsTesting
import Testing

/// The README's code, compiled and checked, so the README cannot rot.
@Suite("README examples")
struct ReadmeExamplesTests {
    @Test func signalsInOneMinute() {
        let printed = Log<String>()
        @Sendable func print(_ items: any Sendable...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let purchaseNum = MutableProperty(1)
        let bag = DisposeBag()

        purchaseNum.signal.subscribe(onValue: { print("list:", $0) }).disposed(by: bag)
        purchaseNum.signal
            .map { $0 * 12 }
            .removeDuplicates()
            .subscribe(onValue: { print("total:", $0, "€") })
            .disposed(by: bag)

        purchaseNum.value = 3

        #expect(printed.elements == ["list: 1", "total: 12 €", "list: 3", "total: 36 €"])
    }
}
