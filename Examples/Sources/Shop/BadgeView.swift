import SignalStore

final class BadgeView {            // main-actor isolated (explicitly, or by the module's default)
    var text = ""
    private(set) var status = ""
    private let bag = DisposeBag()

    init(order: Order) {
        order.signal(for: \.purchaseNum).map { "× \($0)" }
            .bind(to: self, \.text)                              // held weakly
            .disposed(by: bag)
        order.signal(for: \.status)
            .subscribeOnMain { [weak self] status in self?.status = status }   // a main-actor closure
            .disposed(by: bag)
    }
}
