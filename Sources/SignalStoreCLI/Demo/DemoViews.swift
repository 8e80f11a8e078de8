import SignalStore

/// The demo's three views: main-actor objects, as in an app, bound to the order with
/// `subscribeOnMain` and `bind(to:_:)`. Each prints what it shows.
@MainActor
final class DemoViews {
    private let list: DemoListView
    private let detail: DemoDetailView
    private let badge: DemoBadgeView

    init(order: DemoOrder, console: Console) {
        list = DemoListView(order: order, console: console)
        detail = DemoDetailView(order: order, console: console)
        badge = DemoBadgeView(order: order, console: console)
    }

    /// The count the list shows now.
    var listedCount: Int? { list.count }
}

/// The list row: a main-actor closure per value.
@MainActor
final class DemoListView {
    private(set) var count: Int?
    private let bag = DisposeBag()

    init(order: DemoOrder, console: Console) {
        order.signal(for: \.purchaseNum)
            .subscribeOnMain { [weak self] count in
                self?.count = count
                console.print("   [list]   order 1 × \(count)")
            }
            .disposed(by: bag)
    }
}

/// The detail pane: its `total` property is bound to the order's count.
@MainActor
final class DemoDetailView {
    private let console: Console
    private let bag = DisposeBag()
    var total = "" {
        didSet { console.print("   [detail] total \(total)") }
    }

    init(order: DemoOrder, console: Console) {
        self.console = console
        order.signal(for: \.purchaseNum).map { "\($0 * 12) €" }
            .bind(to: self, \.total)
            .disposed(by: bag)
    }
}

/// The status badge: its `status` property is bound to the order's status.
@MainActor
final class DemoBadgeView {
    private let console: Console
    private let bag = DisposeBag()
    var status = "" {
        didSet { console.print("   [badge]  \(status)") }
    }

    init(order: DemoOrder, console: Console) {
        self.console = console
        order.signal(for: \.status)
            .bind(to: self, \.status)
            .disposed(by: bag)
    }
}
