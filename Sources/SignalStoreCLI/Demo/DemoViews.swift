import SignalStore

/// The demo's three views: main-actor objects, as in an app, bound to the order with
/// `subscribeOnMain` and `bind(to:_:)`. Each prints what it shows.
@MainActor
final class DemoViews {
    private let list: DemoListView
    private let detail: DemoLabelView
    private let badge: DemoLabelView

    init(order: DemoOrder, console: Console) {
        list = DemoListView(order: order, console: console)
        detail = DemoLabelView(tag: "[detail]", text: order.signal(for: \.purchaseNum).map { "total \($0 * 12) €" }, console: console)
        badge = DemoLabelView(tag: "[badge] ", text: order.signal(for: \.status), console: console)
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

/// A label whose `text` property is bound to a signal: the detail pane's total, the status
/// badge. It prints each text it shows after its tag.
@MainActor
final class DemoLabelView {
    private let tag: String
    private let console: Console
    private let bag = DisposeBag()
    var text = "" {
        didSet { console.print("   \(tag) \(text)") }
    }

    init(tag: String, text: Signal<String, Never>, console: Console) {
        self.tag = tag
        self.console = console
        text.bind(to: self, \.text).disposed(by: bag)
    }
}
