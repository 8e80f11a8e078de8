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
        detail = DemoLabelView(tag: "[detail]", text: order.signal(for: \.purchaseNum).map(Self.total), console: console)
        badge = DemoLabelView(tag: "[badge] ", text: order.signal(for: \.status), console: console)
    }

    /// Whether every view that shows the count shows `count`. Each view has its own line on
    /// the main queue, so after a change from another thread they update one after another.
    func allShow(count: Int) -> Bool {
        list.count == count && detail.text == Self.total(count)
    }

    /// The detail pane's text for a count.
    nonisolated static func total(_ count: Int) -> String {
        "total \(count * 12) €"
    }
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
