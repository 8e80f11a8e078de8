import SignalStore

// The model of the "Model objects" and "Using SignalStore in an app" articles, as printed there.
@Model(table: "orders")
final class Order {
    var id: Int64                 // the primary key: `id`, or mark another with @PrimaryKey
    var purchaseNum: Int          // column purchase_num; @Column("…") chooses another name
    var status: String
    var note: String?
    @Transient var isSelected = false   // observable, never written

    init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}

// The customers of the "Transactions" article's example.
@Model(table: "customers")
final class Customer {
    var id: Int64
    var name: String
    var email: String?

    init(id: Int64, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}
