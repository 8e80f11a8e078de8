/// One change-feed entry a test expects: an insert, an update of one column, or a delete of
/// one row, named by table and primary key.
///
/// ```swift
/// let expected: [ExpectedChange] = [
///     .insert("orders", id: 43, ["status": "open"]),                // checks the columns it names
///     .update("orders", id: 42, "status", from: "open", to: "paid"),
///     .update(\Order.purchaseNum, id: 42, from: 1, to: 3),          // typed, on a model's key path
///     .delete("orders", id: 41),
/// ]
/// ```
/// `id` is the row's primary key (its rowid when the table has no single-column key).
public struct ExpectedChange: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case insert([String: SQLiteValue])
        case update(column: String, from: SQLiteValue, to: SQLiteValue)
        case delete
    }

    let table: String
    let id: SQLiteValue
    let kind: Kind

    /// An insert into `table` of the row whose key is `id`, with at least these column values
    /// (the columns not named are not checked).
    public static func insert(_ table: String, id: some SQLiteValueConvertible, _ columns: [String: any SQLiteValueConvertible] = [:]) -> ExpectedChange {
        ExpectedChange(table: table, id: id.sqliteValue, kind: .insert(columns.mapValues { $0.sqliteValue }))
    }

    /// An update of one column of the row whose key is `id`, from one value to another.
    public static func update(_ table: String, id: some SQLiteValueConvertible, _ column: String, from old: some SQLiteValueConvertible, to new: some SQLiteValueConvertible) -> ExpectedChange {
        ExpectedChange(table: table, id: id.sqliteValue, kind: .update(column: column, from: old.sqliteValue, to: new.sqliteValue))
    }

    /// A delete of the row whose key is `id`.
    public static func delete(_ table: String, id: some SQLiteValueConvertible) -> ExpectedChange {
        ExpectedChange(table: table, id: id.sqliteValue, kind: .delete)
    }

    /// An update of a model's property, named by key path: its table and column come from the
    /// model.
    public static func update<Model: PersistentModel, Value: SQLiteValueConvertible>(
        _ property: KeyPath<Model, Value>, id: some SQLiteValueConvertible, from old: Value, to new: Value
    ) -> ExpectedChange {
        .update(Model._$table, id: id, column(of: property), from: old, to: new)
    }

    /// A change of a `@Parent` relationship: an update of its key column from one parent's key
    /// to another's (nil for NULL).
    ///
    /// ```swift
    /// .update(\Order.customer, id: 42, from: 1, to: 2)   // order 42 moved from customer 1 to 2
    /// ```
    public static func update<Model: PersistentModel, Parent: PersistentModel, Key: SQLiteValueConvertible>(
        _ relationship: KeyPath<Model, Parent?>, id: some SQLiteValueConvertible, from old: Key, to new: Key
    ) -> ExpectedChange {
        guard let found = Model._$isolation.relationship(of: relationship), found.kind == .parent,
              let index = Model._$columns.firstIndex(where: { $0.property == found.keyProperty })
        else { preconditionFailure("\(relationship) is not a @Parent relationship of \(Model.self)") }
        return .update(Model._$table, id: id, Model._$columns[index].name, from: old, to: new)
    }

    /// An insert of a model's row, with at least these property values.
    public static func insert<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) -> ExpectedChange {
        .insert(Model._$table, id: id)
    }

    /// A delete of a model's row.
    public static func delete<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) -> ExpectedChange {
        .delete(Model._$table, id: id)
    }

    private static func column<Model: PersistentModel, Value>(of property: KeyPath<Model, Value>) -> String {
        guard let index = Model._$isolation.index(of: property), index < Model._$columns.count else {
            preconditionFailure("\(property) is not a persisted property of \(Model.self): a @Transient property is not in the feed")
        }
        return Model._$columns[index].name
    }

    /// `update orders id=42 status 'open' → 'paid'`
    public var description: String {
        switch kind {
        case .insert(let columns):
            let named = columns.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return "insert \(table) id=\(id)" + (named.isEmpty ? "" : " {\(named), …}")
        case .update(let column, let old, let new):
            return "update \(table) id=\(id) \(column) \(old) → \(new)"
        case .delete:
            return "delete \(table) id=\(id)"
        }
    }
}
