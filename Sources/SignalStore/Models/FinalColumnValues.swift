/// Each changed column's final value in a batch of journal entries, in the order first changed.
///
/// A batch's values are stored in their objects once, at the end, so no other thread ever reads
/// a value the batch only passed through (a transaction's intermediate values are not committed
/// states), and a column that ends where it started notifies nothing.
struct FinalColumnValues {
    private var order: [ChangedColumn] = []
    private var final: [ChangedColumn: SQLiteValue] = [:]
    /// The SQL of the last model type seen: a batch is mostly one type, and ``ModelSQL/of(_:)``
    /// takes a lock.
    private var lastSQL: (type: ObjectIdentifier, sql: ModelSQL)?
    /// The last column looked up, and its index in the model of `lastSQL`.
    private var lastColumn: (name: String, index: Int?)?

    /// Notes `value` as column `index` of `object`'s value so far.
    mutating func set(_ object: any PersistentModel, _ index: Int, _ value: SQLiteValue) {
        let key = ChangedColumn(object: object, column: index)
        if final.updateValue(value, forKey: key) == nil { order.append(key) }
    }

    /// Notes an update of `column` to `value` (a column the model does not map is ignored).
    /// - Returns: The column's index in the model, if it maps it.
    @discardableResult
    mutating func set(_ object: any PersistentModel, column: String, _ value: SQLiteValue) -> Int? {
        let sql = sql(of: object)
        let index: Int?
        if let lastColumn, lastColumn.name == column {
            index = lastColumn.index
        } else {
            index = sql.index(ofColumn: column)
            lastColumn = (column, index)
        }
        guard let index else { return nil }
        set(object, index, value)
        return index
    }

    /// The SQL of `object`'s model type.
    mutating func sql(of object: any PersistentModel) -> ModelSQL {
        let type = ObjectIdentifier(Swift.type(of: object))
        if let lastSQL, lastSQL.type == type { return lastSQL.sql }
        let sql = ModelSQL.of(Swift.type(of: object))
        lastSQL = (type, sql)
        lastColumn = nil
        return sql
    }

    /// Notes every column of an inserted row (the object's row was replaced by it).
    mutating func set(_ object: any PersistentModel, row: [String: SQLiteValue]) {
        for (column, value) in row { set(object, column: column, value) }
    }

    /// Stores the final values in their objects.
    /// - Returns: A notification for each column whose value changed, in the order first changed.
    func store() -> [ModelNotification] {
        order.compactMap { changed in
            let object = changed.object
            guard let value = final[changed], object._$apply(column: changed.column, value: value) else { return nil }
            return .changed(object, column: changed.column, value: value)
        }
    }
}

/// One column of one object, compared by object identity.
struct ChangedColumn: Hashable {
    let object: any PersistentModel
    let column: Int

    static func == (lhs: ChangedColumn, rhs: ChangedColumn) -> Bool {
        lhs.object === rhs.object && lhs.column == rhs.column
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
        hasher.combine(column)
    }
}
