import SignalStore

// The "Relationships" article's functions, as printed there.

func move(_ order: Order, to customer: Customer) {
    order.customer = customer   // UPDATE orders SET customer_id = customer.id
}

func customerName(of order: Order) -> Signal<String?, Never> {
    order.signal(for: \.customer, \.name)
}

func orderCount(of customer: Customer) -> Int {
    customer.orders.count
}

func openOrdersWithCustomers(in store: Store) throws -> [Order] {
    try store.all(Order.self, where: \.status == "open", orderBy: .ascending(\.id), including: \.customer)
}

func ordersByCustomerName(in store: Store) -> LiveResults<Order> {
    store.results(Order.self, where: .parent(\Order.customer, \Customer.name != "test"), orderBy: .parent(\Order.customer, .ascending(\Customer.name)))
}

// "Lists That Stay Live": many lists at once, on this article's models.

func ordersOfEveryCustomer(in store: Store) throws -> [LiveResults<Order>] {
    try store.all(Customer.self, orderBy: .ascending(\.id)).map(\.orders)
}
