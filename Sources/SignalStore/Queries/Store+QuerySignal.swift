extension Store {
    /// The objects matching `predicate`, now and after every commit that changes the result.
    ///
    /// Replays the current result on subscribe. After each commit that touched `Model`'s table
    /// (by any writer, any process), the query runs again, at most once per commit, on a
    /// read-only connection and with no store lock held; the signal sends the new result only
    /// if it differs: other objects, or the same ones in another order. Changes to the values of
    /// objects already in the result arrive on those objects' own signals.
    ///
    /// A query that fails (say, a migration dropped a column it names) sends nothing; the
    /// failure is reported on ``errors`` and the query runs again at the next commit.
    ///
    /// ```swift
    /// let open = store.signal(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id")
    /// let subscription = open.subscribe(onValue: { orders in print(orders.count, "open orders") })
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - predicate: An SQL `WHERE` fragment, or `nil` for every row.
    ///   - arguments: Values bound to the fragment's `?` parameters.
    ///   - orderBy: An SQL `ORDER BY` fragment, or `nil` for rowid order.
    public func signal<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil
    ) -> Signal<[Model], Never> {
        Signal { [self] downstream in
            let query = LiveQuery<Model>(store: self, predicate: predicate, arguments: arguments, orderBy: orderBy)
            let first = query.run(unlessIncluding: nil)
            if let first {
                downstream.send(first)
            } else if isClosed {
                downstream.complete()
                return AnyDisposable()
            }
            let table = Model._$table
            let subscription = publisher.commits.subscribe(Subscriber(sharing: downstream) { event in
                switch event {
                case .value(let notice):
                    guard notice.tables.contains(table), let result = query.run(unlessIncluding: notice.seq) else { return }
                    downstream.send(result)
                case .completed, .failed:
                    downstream.complete()
                }
            })
            // A commit between the first run and the subscription: run once more on the
            // delivering thread, in line with the commits that follow. (After a failed first
            // run, the next commit runs it again.)
            if first != nil {
                publisher.enqueue([.notification {
                    if let result = query.run(unlessIncluding: nil) { downstream.send(result) }
                }])
                publisher.drain()
            }
            return subscription
        }
    }
}

/// One query signal's state: the last result sent and the snapshot it came from.
private final class LiveQuery<Model: PersistentModel>: Sendable {
    /// Held weakly: the store's commit notices hold this query, so a strong reference would
    /// keep a released store open for as long as the query is subscribed.
    private let storeReference: Locked<WeakStore>
    private let predicate: String?
    private let arguments: [SQLiteValue]
    private let orderBy: String?
    /// The last result sent (held, so its objects stay the live instances and compare by
    /// identity) and the snapshot it came from.
    private let state = Locked<(seq: Int64, objects: [Model])?>(nil)

    init(store: Store, predicate: String?, arguments: [SQLiteValue], orderBy: String?) {
        storeReference = Locked(WeakStore(store: store))
        self.predicate = predicate
        self.arguments = arguments
        self.orderBy = orderBy
    }

    /// Runs the query, unless the last result came from a snapshot that includes the journal
    /// through `seq`; returns the result if it differs from the last one. A failure goes to
    /// the store's errors and returns `nil`.
    func run(unlessIncluding seq: Int64?) -> [Model]? {
        guard let store = storeReference.withLock({ $0.store }) else { return nil }
        if let seq, let last = state.withLock({ $0?.seq }), last >= seq { return nil }
        let read: (seq: Int64, objects: [Model])
        do {
            let fetched = try store.reading { connection, snapshot in
                (try snapshot.get(), try store.fetch(Model.self, where: predicate, arguments: arguments, orderBy: orderBy, connection, snapshot))
            }
            read = (fetched.0, try fetched.1.resolved { rowID in try store.reload(Model.self, rowID: rowID) })
        } catch {
            store.report(StoreError(error))
            return nil
        }
        let changed = state.withLock { last -> Bool in
            if let last, last.seq > read.seq { return false }   // a newer result was already sent
            defer { last = read }
            guard let last else { return true }
            return !last.objects.elementsEqual(read.objects, by: ===)
        }
        return changed ? read.objects : nil
    }
}

/// A store referred to weakly.
private struct WeakStore {
    weak var store: Store?
}
