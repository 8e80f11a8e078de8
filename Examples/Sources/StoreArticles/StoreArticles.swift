import SignalStore

// The Swift of the "Errors", "Concurrency in the Store" and "The Change Feed" articles, as
// printed there.

func add(_ order: Order, to store: Store) -> String {
    do {
        try store.insert(order)
        return "saved"
    } catch SQLiteError.constraintPrimaryKey {
        return "an order with this id exists; nothing was written"
    } catch SQLiteError.constraint {
        return "rejected by a constraint; nothing was written"
    } catch {
        return "\(error)"   // says what went wrong and what to do
    }
}

func summary(_ store: Store) throws -> String {
    try store.read { snapshot in
        let open = try snapshot.count(Order.self, where: "status = 'open'")
        let paid = try snapshot.count(Order.self, where: "status = 'paid'")
        return "\(open) open, \(paid) paid"   // the same commit's counts
    }
}

func openOrders(of store: Store) -> Signal<[Order], Never> {
    store.signal(Order.self, where: \.status == "open" && \.purchaseNum > 0, orderBy: .descending(\.purchaseNum))
}

func follow(_ store: Store, after lastProcessedSeq: Int64, apply: @escaping @Sendable (Change) -> Void) -> any Disposable {
    store.changes(since: lastProcessedSeq).subscribe(
        onValue: { change in apply(change) },   // keep change.seq: the next run resumes after it
        onFailure: { error in print(error) }
    )
}

func startUploading(_ store: Store, upload: @escaping @Sendable (Change) throws -> Void) -> any Disposable {
    store.changes(consumer: "uploader").subscribe(onValue: { change in
        do {
            try upload(change)
            try store.acknowledge(through: change.seq, consumer: "uploader")
        } catch {
            print(error)   // not acknowledged: delivered again after a restart
        }
    })
}
