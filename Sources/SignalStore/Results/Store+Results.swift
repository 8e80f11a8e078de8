extension Store {
    /// A live result: the objects matching `predicate` in the order of `orderBy`, kept current
    /// row by row after every commit, by every writer. See ``LiveResults``.
    ///
    /// ```swift
    /// func paidOrders(_ store: Store) -> LiveResults<Order> {
    ///     store.results(Order.self, where: "status = ?", arguments: [.text("paid")], orderBy: "purchase_num DESC")
    /// }
    /// ```
    ///
    /// A filter that cannot be read (an unknown column, say) leaves the result empty and is
    /// reported on ``errors``; the query runs again at the next commit.
    /// - Parameters:
    ///   - type: The model type.
    ///   - predicate: An SQL `WHERE` fragment, or `nil` for every row.
    ///   - arguments: Values bound to the fragment's `?` parameters.
    ///   - orderBy: An SQL `ORDER BY` fragment, or `nil` for rowid order. A list of the model's
    ///     columns (`COLLATE` and `ASC`/`DESC` allowed) is kept in order incrementally; anything
    ///     else re-runs the query after each commit that touches the table.
    ///   - limit: Keep only the first `limit` rows of the ordering (a window; see
    ///     ``results(_:where:orderBy:limit:)``), or `nil` for every row. Zero or less: none.
    public func results<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil,
        limit: Int? = nil
    ) -> LiveResults<Model> {
        LiveResults(store: self, query: ResultsQuery(predicate: predicate, arguments: arguments, orderBy: orderBy, limit: limit))
    }

    /// A live result of the objects matching `filter`, in the given order (the rowid breaks
    /// ties). See ``LiveResults``.
    ///
    /// ```swift
    /// func openOrders(_ store: Store) -> LiveResults<Order> {
    ///     store.results(Order.self, where: \.status == "open", orderBy: .ascending(\.purchaseNum))
    /// }
    /// ```
    public func results<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>,
        orderBy orderings: ModelOrdering<Model>...
    ) -> LiveResults<Model> {
        LiveResults(store: self, query: ResultsQuery(filter: filter.expression, orderBy: orderings))
    }

    /// A window: the first `limit` objects matching `filter` in the given order, kept live. A
    /// row that leaves the window is replaced by the next one of the ordering (one read of the
    /// table, which an index on the filter's and order's columns makes cheap); a row that
    /// enters pushes the last one out; a change after the window costs one read of that row.
    /// The indices of ``LiveResults/changes`` are those of the window.
    ///
    /// ```swift
    /// func topOpenOrders(_ store: Store) -> LiveResults<Order> {
    ///     store.results(Order.self, where: \.status == "open", orderBy: .descending(\.purchaseNum), limit: 10)
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - filter: Which rows.
    ///   - orderings: The order the window takes the first rows of (the rowid breaks ties).
    ///   - limit: How many rows the window holds; zero or less holds none.
    public func results<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>,
        orderBy orderings: ModelOrdering<Model>...,
        limit: Int
    ) -> LiveResults<Model> {
        LiveResults(store: self, query: ResultsQuery(filter: filter.expression, orderBy: orderings, limit: limit))
    }

    /// A window of the first `limit` objects of the model in the given order, kept live. See
    /// ``results(_:where:orderBy:limit:)``.
    public func results<Model: PersistentModel>(
        _ type: Model.Type,
        orderBy first: ModelOrdering<Model>,
        _ then: ModelOrdering<Model>...,
        limit: Int
    ) -> LiveResults<Model> {
        LiveResults(store: self, query: ResultsQuery(filter: nil, orderBy: [first] + then, limit: limit))
    }

    /// A live result of every object of the model, in the given order. See ``LiveResults``.
    public func results<Model: PersistentModel>(
        _ type: Model.Type,
        orderBy first: ModelOrdering<Model>,
        _ then: ModelOrdering<Model>...
    ) -> LiveResults<Model> {
        LiveResults(store: self, query: ResultsQuery(filter: nil, orderBy: [first] + then))
    }

    /// Makes the journal be read from `seq` on if nobody was reading it (entries were skipped
    /// while nobody listened): a live result whose first query saw the journal through `seq`
    /// needs every entry after it. Under the writer's lock, so a writer that found nobody
    /// listening has already marked the position stale.
    func resumeReading(after seq: Int64) {
        database.withLock { _ in
            registry.withLock { registry in
                if registry.isBehind {
                    registry.lastSeenSeq = seq
                    registry.isBehind = false
                }
            }
        }
    }
}
