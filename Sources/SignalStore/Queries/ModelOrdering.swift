/// The order of a query's results, by a model's persisted properties:
/// `.ascending(\.id)`, `.descending(\.purchaseNum)`. Several are applied in turn (ties of the
/// first are ordered by the second); the rowid breaks the remaining ties, so the order is
/// stable.
///
/// An ordering is a value (a column and a direction): SQL is rendered from it in one place
/// (``sql``), and a live result reads the column and direction from it, never from the SQL.
public struct ModelOrdering<Model: PersistentModel>: Sendable {
    /// The column and direction.
    let term: ResultsOrdering.Term

    /// The SQL `ORDER BY` term.
    public var sql: String { term.sql }

    /// Smallest first (NULL first, as SQLite orders it).
    public static func ascending<Value>(_ keyPath: KeyPath<Model, Value>) -> ModelOrdering {
        ModelOrdering(term: ResultsOrdering.Term(column: ModelFilter<Model>.column(of: keyPath), descending: false, explicitCollation: nil))
    }

    /// Largest first (NULL last).
    public static func descending<Value>(_ keyPath: KeyPath<Model, Value>) -> ModelOrdering {
        ModelOrdering(term: ResultsOrdering.Term(column: ModelFilter<Model>.column(of: keyPath), descending: true, explicitCollation: nil))
    }

    /// By a property of the parent, through the `@Parent` property `link`: orders by their
    /// customer's name, `.parent(\Order.customer, .ascending(\Customer.name))`. A row without a
    /// parent sorts as NULL. A live result follows both tables: renaming a customer moves her
    /// orders. One link deep: `ordering` is on the parent's own properties.
    public static func parent<Parent: PersistentModel>(_ link: KeyPath<Model, Parent?>, _ ordering: ModelOrdering<Parent>) -> ModelOrdering {
        precondition(ordering.term.link == nil, "ModelOrdering.parent(\(link), …) takes an ordering of \(Parent.self)'s own properties, not one across another parent")
        let term = ordering.term
        return ModelOrdering(term: ResultsOrdering.Term(column: term.column, descending: term.descending, explicitCollation: term.explicitCollation, link: ParentJoin.of(link)))
    }

    /// The `ORDER BY` clause of `orderings`, ending with the rowid.
    static func clause(_ orderings: [ModelOrdering]) -> String {
        (orderings.map(\.sql) + ["rowid"]).joined(separator: ", ")
    }
}

extension Store {
    /// The objects matching `filter`, in the given order, live instances where they exist. See
    /// ``all(_:where:arguments:orderBy:)`` for how it reads.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>,
        orderBy orderings: ModelOrdering<Model>...
    ) throws(StoreError) -> [Model] {
        try all(Model.self, where: filter.sql, arguments: filter.arguments, orderBy: ModelOrdering.clause(orderings))
    }

    /// Every object of the model, in the given order.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        orderBy first: ModelOrdering<Model>,
        _ then: ModelOrdering<Model>...
    ) throws(StoreError) -> [Model] {
        try all(Model.self, where: nil, orderBy: ModelOrdering.clause([first] + then))
    }

    /// The objects matching `filter`, now and after every commit that changes the result: the
    /// ``LiveResults`` of the same typed query (routed by its key, reading the parents it
    /// names) as arrays. See ``signal(_:where:arguments:orderBy:)``.
    public func signal<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>,
        orderBy orderings: ModelOrdering<Model>...
    ) -> Signal<[Model], Never> {
        arrays(of: LiveResults(store: self, query: ResultsQuery(filter: filter.expression, orderBy: orderings)))
    }

    /// Every object of the model in the given order, now and after every commit that changes
    /// the result.
    public func signal<Model: PersistentModel>(
        _ type: Model.Type,
        orderBy first: ModelOrdering<Model>,
        _ then: ModelOrdering<Model>...
    ) -> Signal<[Model], Never> {
        arrays(of: LiveResults(store: self, query: ResultsQuery(filter: nil, orderBy: [first] + then)))
    }
}

extension StoreSnapshot {
    /// The objects matching `filter` in this snapshot, in the given order.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>,
        orderBy orderings: ModelOrdering<Model>...
    ) throws(StoreError) -> [Model] {
        try all(Model.self, where: filter.sql, arguments: filter.arguments, orderBy: ModelOrdering.clause(orderings))
    }

    /// The number of rows matching `filter` in this snapshot.
    public func count<Model: PersistentModel>(_ type: Model.Type, where filter: ModelFilter<Model>) throws(StoreError) -> Int {
        try count(Model.self, where: filter.sql, arguments: filter.arguments)
    }
}
