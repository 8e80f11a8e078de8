import SignalStore
import SignalStoreTestSupport
import Testing

// The README's view, as written there ("Views on the main actor").

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

@Suite struct ReadmeViewExampleTests {
    @Test func theReadmeViewShowsTheOrderAndFollowsIt() async throws {
        let directory = TemporaryDirectory()
        let (store, order) = try openStore(in: directory)
        let view = BadgeView(order: order)
        #expect(view.text == "× 1" && view.status == "open")
        order.purchaseNum = 3
        #expect(view.text == "× 3")
        try await Task.detached { _ = try store.execute("UPDATE orders SET status = 'paid' WHERE id = 42") }.value
        #expect(await waitUntil { view.status == "paid" })
        store.close()
    }
}
