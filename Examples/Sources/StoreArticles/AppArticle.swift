import Observation
import SignalStore

// "Using SignalStore in an app", as printed there: this target's default isolation is the main
// actor, as new app targets' is.

final class OrderViewModel {
    private(set) var title = ""
    private(set) var total = ""
    private(set) var status = ""
    private let bag = DisposeBag()

    init(order: Order) {
        order.signal(for: \.purchaseNum).map { "Order × \($0)" }
            .bind(to: self, \.title)
            .disposed(by: bag)
        order.signal(for: \.purchaseNum).map { "\($0 * 12) €" }
            .bind(to: self, \.total)
            .disposed(by: bag)
        order.signal(for: \.status)
            .subscribeOnMain { [weak self] status in self?.status = status.uppercased() }
            .disposed(by: bag)
    }
}

final class Label {
    var text: String?
}

final class OrderCell {
    let countLabel = Label()
    let statusLabel = Label()
    private var bindings = DisposeBag()

    func show(_ order: Order) {
        bindings = DisposeBag()   // the old bag disposes its bindings when released
        order.signal(for: \.purchaseNum).map { "× \($0)" as String? }
            .bind(to: countLabel, \.text)
            .disposed(by: bindings)
        order.signal(for: \.status).map { $0 as String? }
            .bind(to: statusLabel, \.text)
            .disposed(by: bindings)
    }
}

func statusOnce(of order: Order, onChange: @escaping @Sendable () -> Void) -> String {
    withObservationTracking { order.status } onChange: { onChange() }
}

#if canImport(SwiftUI)
import SwiftUI

struct OrderBadge: View {
    let order: Order

    var body: some View {
        Text("× \(order.purchaseNum)")   // SwiftUI redraws when the order changes
    }
}
#endif

func showCounts(of order: Order, in label: Label) async {
    for await count in order.values(for: \.purchaseNum) {
        label.text = "× \(count)"
    }
}
