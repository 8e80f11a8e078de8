import Foundation
import Observation
import SignalStore
import SignalStoreTestSupport
import Testing

// The snippets of the DocC article "Using SignalStore in an app", as written there (the model is
// in AppModel.swift; the SwiftUI snippet needs SwiftUI and is not built on Linux).

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

func showCounts(of order: Order, in label: Label) async {
    for await count in order.values(for: \.purchaseNum) {
        label.text = "× \(count)"
    }
}

@Suite struct ArticleExampleTests {
    @Test func severalViewModelsShareOneOrder() throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let first = OrderViewModel(order: order)
        let second = OrderViewModel(order: try #require(try store.find(Order.self, id: 42)))
        #expect(first.title == "Order × 1" && first.total == "12 €" && first.status == "OPEN")
        order.purchaseNum = 2
        #expect(second.title == "Order × 2" && second.total == "24 €")
        store.close()
    }

    @Test func aReusedCellFollowsOnlyItsNewOrder() throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let other = Order(id: 7, purchaseNum: 5, status: "paid")
        try store.insert(other)
        let cell = OrderCell()
        cell.show(order)
        #expect(cell.countLabel.text == "× 1" && cell.statusLabel.text == "open")
        cell.show(other)
        order.purchaseNum = 9
        #expect(cell.countLabel.text == "× 5" && cell.statusLabel.text == "paid")
        store.close()
    }

    @Test func observationAndAsyncSnippetsWork() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let changes = Recorder<Int>()
        #expect(statusOnce(of: order) { changes.record(1) } == "open")
        order.status = "paid"
        #expect(changes.values == [1])
        let label = Label()
        let reader = Task { await showCounts(of: order, in: label) }
        #expect(await waitUntil { label.text == "× 1" })
        order.purchaseNum = 3
        #expect(await waitUntil { label.text == "× 3" })
        reader.cancel()
        await reader.value
        store.close()
    }
}
