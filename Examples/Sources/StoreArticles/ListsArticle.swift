import SignalStore

// "Lists That Stay Live", as printed there.

func openOrders(in store: Store) -> LiveResults<Order> {
    store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
}

func bigOrders(in store: Store) -> LiveResults<Order> {
    store.results(Order.self, where: "purchase_num >= ?", arguments: [.integer(10)], orderBy: "status, purchase_num DESC")
}

func topOpenOrders(in store: Store) -> LiveResults<Order> {
    store.results(Order.self, where: \.status == "open", orderBy: .descending(\.purchaseNum), limit: 10)
}

func openCount(in store: Store) -> Signal<Int, Never> {
    store.count(Order.self, where: \.status == "open")
}

func purchasesPerStatus(in store: Store) -> Signal<[String: Int], Never> {
    store.sum(\Order.purchaseNum, groupedBy: \.status)
}

/// A list's rows, kept in step with a live result (a table view's data source does the same).
final class OrderList {
    private(set) var rows: [Int64] = []
    private let bag = DisposeBag()

    init(_ orders: LiveResults<Order>) {
        orders.changes.subscribeOnMain { [weak self] change in self?.apply(change) }.disposed(by: bag)
    }

    func apply(_ change: ResultsChange<Order>) {
        switch change {
        case .initial(let orders):
            rows = orders.map(\.id)
        case .update(let orders, let deletions, let insertions, _):
            for index in deletions.reversed() { rows.remove(at: index) }
            for index in insertions { rows.insert(orders[index].id, at: index) }
        }
    }
}

#if canImport(UIKit)
import UIKit

/// Open orders in a table view that animates each commit's rows, from every writer.
final class OpenOrdersViewController: UITableViewController {
    private var orders: [Order] = []
    private let bag = DisposeBag()

    init(store: Store) {
        super.init(style: .plain)
        openOrders(in: store).changes.subscribeOnMain { [weak self] change in self?.show(change) }.disposed(by: bag)
    }

    required init?(coder: NSCoder) { nil }

    private func show(_ change: ResultsChange<Order>) {
        switch change {
        case .initial(let all):
            orders = all
            tableView.reloadData()
        case .update(let all, let deletions, let insertions, let modifications):
            orders = all
            tableView.performBatchUpdates {
                tableView.deleteRows(at: deletions.map { IndexPath(row: $0, section: 0) }, with: .automatic)
                tableView.insertRows(at: insertions.map { IndexPath(row: $0, section: 0) }, with: .automatic)
            }
            tableView.reconfigureRows(at: modifications.map { IndexPath(row: $0, section: 0) })
        }
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        orders.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "order") ?? UITableViewCell(style: .default, reuseIdentifier: "order")
        let order = orders[indexPath.row]
        cell.textLabel?.text = "Order \(order.id) × \(order.purchaseNum)"
        return cell
    }
}
#endif

#if canImport(SwiftUI)
import SwiftUI

/// Open orders, live, in a SwiftUI list.
struct OpenOrdersView: View {
    let orders: LiveResults<Order>

    var body: some View {
        List(orders, id: \.id) { order in
            Text("Order \(order.id) × \(order.purchaseNum)")
        }
    }
}
#endif
