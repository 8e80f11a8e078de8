/// A condition on a model's properties, written with key paths and compiled to an SQL `WHERE`
/// clause whose values are bound, never spliced into the SQL:
///
/// ```swift
/// func urgent(_ store: Store) throws -> [Order] {
///     try store.all(Order.self, where: \.status == "open" && \.purchaseNum >= 3, orderBy: .descending(\.purchaseNum))
/// }
/// ```
///
/// `==` and `!=` compare with SQL's `IS` and `IS NOT`, so `\.note == nil` finds the rows whose
/// `note` is NULL. `<`, `<=`, `>`, `>=` compare values of `Comparable` properties as SQLite
/// orders them. Combine filters with `&&`, `||` and `!`. A key path that is not a persisted
/// property of the model (a `@Transient` one, say) is a programming error and stops the program
/// with a message naming it.
public struct ModelFilter<Model: PersistentModel>: Sendable {
    /// The condition as a value: which columns it compares with which values, and how the
    /// comparisons combine. SQL is rendered from it in one place (``sql``); live results read
    /// it to learn which columns and which key value a result depends on.
    let expression: FilterExpression

    /// The SQL condition, with a `?` per value.
    public var sql: String { expression.rendered.text }
    /// The values bound to the condition's `?` parameters, in order.
    public var arguments: [SQLiteValue] { expression.rendered.arguments }

    init(_ expression: FilterExpression) {
        self.expression = expression
    }

    /// The rows whose parent, through the `@Parent` property `link`, matches `filter`: the
    /// orders of customers named Ann, `.parent(\Order.customer, \Customer.name == "Ann")`.
    /// A row without a parent (a NULL key, or a key that names no row) matches no such filter.
    /// A live result of it follows both tables: renaming a customer moves her orders in or out.
    public static func parent<Parent: PersistentModel>(_ link: KeyPath<Model, Parent?>, _ filter: ModelFilter<Parent>) -> ModelFilter {
        ModelFilter(.parent(ParentJoin.of(link), filter.expression))
    }

    /// The condition `column operator value`, for a persisted property.
    static func comparison<Value: SQLiteValueConvertible>(_ keyPath: KeyPath<Model, Value>, _ comparison: FilterExpression.Operator, _ value: Value) -> ModelFilter {
        ModelFilter(.comparison(column: column(of: keyPath), comparison, value.sqliteValue))
    }

    /// The column of a persisted property.
    static func column(of keyPath: PartialKeyPath<Model>) -> String {
        guard let index = Model._$isolation.index(of: keyPath), index < Model._$columns.count else {
            preconditionFailure("\(keyPath) is not a persisted property of \(Model.self); a filter or an ordering can only name persisted ones")
        }
        return Model._$columns[index].name
    }
}

/// The rows whose property equals `value` (SQL `IS`, so `nil` matches NULL).
public func == <Model, Value: SQLiteValueConvertible>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .same, rhs)
}

/// The rows whose property differs from `value` (SQL `IS NOT`).
public func != <Model, Value: SQLiteValueConvertible>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .notSame, rhs)
}

/// The rows whose property is less than `value`.
public func < <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .less, rhs)
}

/// The rows whose property is at most `value`.
public func <= <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .lessOrEqual, rhs)
}

/// The rows whose property is greater than `value`.
public func > <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .greater, rhs)
}

/// The rows whose property is at least `value`.
public func >= <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, .greaterOrEqual, rhs)
}

/// The rows both filters match.
public func && <Model>(lhs: ModelFilter<Model>, rhs: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(.and(lhs.expression, rhs.expression))
}

/// The rows either filter matches.
public func || <Model>(lhs: ModelFilter<Model>, rhs: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(.or(lhs.expression, rhs.expression))
}

/// The rows the filter does not match.
public prefix func ! <Model>(filter: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(.not(filter.expression))
}
