import Signals

// "Getting Started": a view on the main actor, in a module with no default isolation.
@MainActor final class BadgeView {
    var text = ""
    private let bag = DisposeBag()

    init(count: MutableProperty<Int>) {
        count.signal.map { "× \($0)" }
            .bind(to: self, \.text)          // held weakly; set before `bind` returns
            .disposed(by: bag)
    }
}
