extension Store {
    /// The objects matching `predicate`, now and after every commit that changes the result.
    ///
    /// Replays the current result on subscribe, then sends the new result after each commit
    /// that changes it: other objects, or the same ones in another order. Changes to the values
    /// of objects already in the result arrive on those objects' own signals. It is the
    /// ``LiveResults`` of the same query (``results(_:where:arguments:orderBy:limit:)``) as arrays:
    /// a commit costs the rows it changed, not a new run of the query, except for the queries
    /// ``LiveResults`` runs again (a subquery, an ordering that is not a list of columns).
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
        arrays(of: results(Model.self, where: predicate, arguments: arguments, orderBy: orderBy))
    }

    /// A live result's membership and order as arrays: the objects now, then after each commit
    /// that adds, removes or moves one.
    func arrays<Model: PersistentModel>(of results: LiveResults<Model>) -> Signal<[Model], Never> {
        results.changes
            .filter { change in
                guard case .update(_, let deletions, let insertions, _) = change else { return true }
                return !deletions.isEmpty || !insertions.isEmpty
            }
            .map(\.objects)
    }
}
