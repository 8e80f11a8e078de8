extension Store {
    /// The number of rows matching `filter`, now and after every commit that changes it.
    ///
    /// ```swift
    /// func openCount(_ store: Store) -> Signal<Int, Never> {
    ///     store.count(Order.self, where: \.status == "open")
    /// }
    /// ```
    ///
    /// Like every live aggregate it replays the current value on subscribe, then sends one value
    /// per commit that changes it and none for a commit that leaves it equal, from every writer.
    /// A commit costs the rows it changed: the count moves by each changed row's old and new
    /// membership, with no query of the whole table. A filter that cannot be read sends nothing
    /// and is reported on ``errors``; it is read again at the next commit.
    public func count<Model: PersistentModel>(_ type: Model.Type, where filter: ModelFilter<Model>? = nil) -> Signal<Int, Never> {
        aggregate(Model.self, filter, value: nil, group: nil, .total { $0?.rows ?? 0 })
    }

    /// The number of rows matching an SQL `WHERE` fragment, live (see ``count(_:where:)``).
    public func count<Model: PersistentModel>(_ type: Model.Type, where predicate: String, arguments: [SQLiteValue] = []) -> Signal<Int, Never> {
        let query = AggregateQuery<Model>(rows: ResultsQuery(predicate: predicate, arguments: arguments, orderBy: nil), valueColumn: nil, groupColumn: nil, keepsExtremes: false)
        return signal(of: LiveAggregate(store: self, query: query), .total { $0?.rows ?? 0 })
    }

    /// The number of rows of each value of `group` among those matching `filter`, live; a
    /// group with no rows is absent (and NULL is a group only if `Group` can hold it).
    public func count<Model: PersistentModel, Group: SQLiteValueConvertible & Hashable & Sendable>(
        _ type: Model.Type, where filter: ModelFilter<Model>? = nil, groupedBy group: KeyPath<Model, Group>
    ) -> Signal<[Group: Int], Never> {
        aggregate(Model.self, filter, value: nil, group: column(group), .grouped { $0.rows })
    }

    /// The sum of `value` over the rows matching `filter`, live: 0 for no rows, NULLs skipped,
    /// as SQLite's `sum` (a sum past the type's range sends nothing and is reported).
    public func sum<Model: PersistentModel, Value: SQLiteValueConvertible & Equatable & Sendable>(
        _ value: KeyPath<Model, Value>, where filter: ModelFilter<Model>? = nil
    ) -> Signal<Value, Never> {
        aggregate(Model.self, filter, value: column(value), group: nil, .total { totals in
            (totals.map { $0.sum } ?? .integer(0)).flatMap(Value.init(sqliteValue:))
        })
    }

    /// The sum of `value` per group, live (see ``sum(_:where:)``).
    public func sum<Model: PersistentModel, Value: SQLiteValueConvertible & Equatable & Sendable, Group: SQLiteValueConvertible & Hashable & Sendable>(
        _ value: KeyPath<Model, Value>, where filter: ModelFilter<Model>? = nil, groupedBy group: KeyPath<Model, Group>
    ) -> Signal<[Group: Value], Never> {
        aggregate(Model.self, filter, value: column(value), group: column(group), .grouped { $0.sum.flatMap(Value.init(sqliteValue:)) })
    }

    /// The mean of `value` over the rows matching `filter`, live; `nil` when no row has a value.
    public func average<Model: PersistentModel, Value: SQLiteValueConvertible>(
        _ value: KeyPath<Model, Value>, where filter: ModelFilter<Model>? = nil
    ) -> Signal<Double?, Never> {
        aggregate(Model.self, filter, value: column(value), group: nil, .total { .some($0?.average) })
    }

    /// The smallest `value` among the rows matching `filter`, live; `nil` for none. Kept from
    /// the changed rows; read again only when the current minimum leaves.
    public func minimum<Model: PersistentModel, Value: SQLiteValueConvertible & Equatable & Sendable>(
        _ value: KeyPath<Model, Value>, where filter: ModelFilter<Model>? = nil
    ) -> Signal<Value?, Never> {
        aggregate(Model.self, filter, value: column(value), group: nil, extremes: true, .total { .some($0?.minimum.flatMap(Value.init(sqliteValue:))) })
    }

    /// The largest `value` among the rows matching `filter`, live; `nil` for none (see
    /// ``minimum(_:where:)``).
    public func maximum<Model: PersistentModel, Value: SQLiteValueConvertible & Equatable & Sendable>(
        _ value: KeyPath<Model, Value>, where filter: ModelFilter<Model>? = nil
    ) -> Signal<Value?, Never> {
        aggregate(Model.self, filter, value: column(value), group: nil, extremes: true, .total { .some($0?.maximum.flatMap(Value.init(sqliteValue:))) })
    }

    // MARK: Building

    private func column<Model: PersistentModel, Value>(_ keyPath: KeyPath<Model, Value>) -> String {
        ModelFilter<Model>.column(of: keyPath)
    }

    private func aggregate<Model: PersistentModel, Output: Equatable & Sendable>(
        _ type: Model.Type, _ filter: ModelFilter<Model>?, value: String?, group: String?, extremes: Bool = false,
        _ output: AggregateOutput<Output>
    ) -> Signal<Output, Never> {
        let rows = ResultsQuery<Model>(filter: filter?.expression, orderBy: [])
        let query = AggregateQuery(rows: rows, valueColumn: value, groupColumn: group, keepsExtremes: extremes)
        return signal(of: LiveAggregate(store: self, query: query), output)
    }

    /// The aggregate's totals as `output` makes them, each distinct value once; the signal
    /// keeps the aggregate live while it or a subscription to it exists.
    private func signal<Model: PersistentModel, Output: Equatable & Sendable>(
        of aggregate: LiveAggregate<Model>, _ output: AggregateOutput<Output>
    ) -> Signal<Output, Never> {
        weak let store = self
        return Signal<Output, Never> { downstream in
            // One stage, whose step is updated in place behind a lock only it takes.
            let step = Locked(AggregateOutput<Output>.Step())
            let stage = Subscriber<AggregateChange, Never>(sharing: downstream) { event in
                guard case .value(let change) = event else { return downstream.forward(.completed) }
                let (send, reportNotFitting) = step.withLock { output.advance(&$0, change, snapshot: aggregate.snapshot) }
                if reportNotFitting {
                    store?.report(StoreError.invalidArgument("a live sum of \(Model._$table) no longer fits its property's type (past Int64, or a value of another type); it sends again once it fits"))
                }
                if let send { downstream.forward(.value(send)) }
            }
            let subscription = aggregate.changes.subscribe(stage)
            return AnyDisposable { withExtendedLifetime(aggregate) { subscription.dispose() } }
        }
    }
}
