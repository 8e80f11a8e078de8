import SignalStore

/// The demo's model: a row of the example schema's `orders` table.
@Model(table: "orders")
final class DemoOrder {
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
