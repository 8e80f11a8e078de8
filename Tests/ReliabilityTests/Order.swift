import SignalStore

/// The example schema's order.
@Model(table: "orders")
final class Order {
    var id: Int64
    var purchaseNum: Int
    var status: String
    var note: String?

    init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}
