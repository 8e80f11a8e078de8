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
    /// The SQL condition, with a `?` per value.
    public let sql: String
    /// The values bound to the condition's `?` parameters, in order.
    public let arguments: [SQLiteValue]

    init(sql: String, arguments: [SQLiteValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The condition `column operator ?`, for a persisted property.
    static func comparison<Value: SQLiteValueConvertible>(_ keyPath: KeyPath<Model, Value>, _ operator: String, _ value: Value) -> ModelFilter {
        let sql: SQL = "\(identifier: ModelFilter.column(of: keyPath)) \(SQL(stringLiteral: `operator`)) \(value: value.sqliteValue)"
        return ModelFilter(sql: sql.text, arguments: sql.arguments)
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
    .comparison(lhs, "IS", rhs)
}

/// The rows whose property differs from `value` (SQL `IS NOT`).
public func != <Model, Value: SQLiteValueConvertible>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, "IS NOT", rhs)
}

/// The rows whose property is less than `value`.
public func < <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, "<", rhs)
}

/// The rows whose property is at most `value`.
public func <= <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, "<=", rhs)
}

/// The rows whose property is greater than `value`.
public func > <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, ">", rhs)
}

/// The rows whose property is at least `value`.
public func >= <Model, Value: SQLiteValueConvertible & Comparable>(lhs: KeyPath<Model, Value>, rhs: Value) -> ModelFilter<Model> {
    .comparison(lhs, ">=", rhs)
}

/// The rows both filters match.
public func && <Model>(lhs: ModelFilter<Model>, rhs: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(sql: "(\(lhs.sql)) AND (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
}

/// The rows either filter matches.
public func || <Model>(lhs: ModelFilter<Model>, rhs: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(sql: "(\(lhs.sql)) OR (\(rhs.sql))", arguments: lhs.arguments + rhs.arguments)
}

/// The rows the filter does not match.
public prefix func ! <Model>(filter: ModelFilter<Model>) -> ModelFilter<Model> {
    ModelFilter(sql: "NOT (\(filter.sql))", arguments: filter.arguments)
}
