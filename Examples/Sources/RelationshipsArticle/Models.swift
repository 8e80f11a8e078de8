import SignalStore

// The models of the "Relationships" article, as printed there.

@Model(table: "customers")
final class Customer {
    var id: Int64
    var name: String
    @Children(\Order.customerID, orderBy: .ascending(\Order.id)) var orders: LiveResults<Order>

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

@Model(table: "orders")
final class Order {
    var id: Int64
    var purchaseNum: Int
    var status: String
    @Column("customer_id") var customerID: Int64?
    @Parent(\Order.customerID) var customer: Customer?

    init(id: Int64, purchaseNum: Int, status: String) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
    }
}

@Model(table: "order_tags")
final class OrderTag {
    var id: Int64
    @Column("order_id") var orderID: Int64
    @Column("tag_id") var tagID: Int64
    @Parent(\OrderTag.orderID) var order: Order?
    @Parent(\OrderTag.tagID) var tag: Tag?

    init(id: Int64, orderID: Int64, tagID: Int64) {
        self.id = id
        self.orderID = orderID
        self.tagID = tagID
    }
}

@Model(table: "tags")
final class Tag {
    var id: Int64
    var name: String
    @Children(\OrderTag.tagID) var orderTags: LiveResults<OrderTag>

    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}
