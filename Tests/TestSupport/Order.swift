import SignalStore

/// The README's example model, on the package's `orders` table, shared by the test targets and
/// the reliability helper process.
@Model(table: "orders")
public final class Order {
    public var id: Int64
    public var purchaseNum: Int
    public var status: String
    public var note: String?
    @Transient public var isSelected = false

    public init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}
