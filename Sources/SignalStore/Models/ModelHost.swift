/// What a managed model object writes through, and reads its relationships from, as the model
/// layer sees it. The model layer owns this protocol and the store implements it, so data
/// crosses it in one direction: a property set hands over the column, the encoded value and the
/// row, and gets back what happened; a relationship asks for the objects a key names. The host never reads from or calls into the object; committed values come back
/// to it the one way every writer's do, through the journal and ``ModelRegistry``.
protocol ModelHost: AnyObject, Sendable {
    /// Writes one column of one row: an `UPDATE` committed on its own, or joined to the open
    /// transaction. A failure is reported by the host (on its error signal, or as the open
    /// transaction's failure); the model keeps the value the database holds.
    func writeColumn(_ write: ColumnWrite) -> ColumnWriteOutcome

    /// Reports a failure of a write that cannot throw (a set on an object whose row is gone).
    func report(_ error: StoreError)

    /// The relationship `property` of `model` matched with its foreign key, or `nil` after
    /// reporting why it does not match.
    func relationship(_ property: String, of model: any PersistentModel.Type) -> ResolvedRelationship?

    /// The live object of `Model` whose `column` holds `value`, or `nil`.
    func object<Model: PersistentModel>(_ type: Model.Type, column: String, value: SQLiteValue) -> Model?

    /// The live result of the objects of `Model` whose `column` holds `value`; a `deferred` one
    /// waits for its first rows from a read made for many (``Store/all(_:where:orderBy:including:_:)``).
    func results<Model: PersistentModel>(_ type: Model.Type, column: String, value: SQLiteValue, orderBy: [ModelOrdering<Model>], deferred: Bool) -> LiveResults<Model>
}

/// One property set on a managed object, as the model hands it to its ``ModelHost``.
struct ColumnWrite {
    /// The model type's SQL: its table and the `UPDATE` of each column.
    let sql: ModelSQL
    /// The column, in the model's `_$columns` order.
    let column: Int
    let rowID: Int64
    let value: SQLiteValue
}

/// What became of a ``ColumnWrite``.
enum ColumnWriteOutcome {
    /// Committed; the journal entry has already updated the object (or nothing changed).
    case committed
    /// Written inside the open transaction: the value is uncommitted, the model keeps it as such
    /// and records it in the transaction so a rollback can undo it.
    case joined(ModelTransaction)
    /// Not written; the host reported why.
    case failed
}
