/// The SQL and lookups of one model type, built once and reused by every write. A class, so
/// handing it along costs one reference count, not one per field.
final class ModelSQL: Sendable {
    /// The model type's name, for messages.
    let typeName: String
    let table: String
    /// The property of each column, for messages.
    let propertyNames: [String]
    let columnNames: [String]
    let primaryKeyIndex: Int
    let insert: String
    let select: String
    /// `select` of one row, by rowid.
    let selectByRowID: String
    /// The `WHERE` condition that finds a row by primary key (one `?`).
    let primaryKeyCondition: String
    let updates: [String]
    let delete: String
    private let columnIndexes: [String: Int]

    init<Model: PersistentModel>(_ type: Model.Type) {
        typeName = "\(type)"
        let table = type._$table
        self.table = table
        propertyNames = type._$columns.map(\.property)
        columnNames = type._$columnNames
        primaryKeyIndex = type._$columns.firstIndex(where: \.isPrimaryKey) ?? 0
        insert = RowSQL.insert(into: table, columns: columnNames)
        select = SQL("SELECT rowid, \(identifiers: columnNames) FROM \(identifier: table)").text
        selectByRowID = select + " WHERE rowid = ?"
        primaryKeyCondition = SQL("\(identifier: columnNames[primaryKeyIndex]) = ?").text
        updates = columnNames.map { RowSQL.update(table, columns: [$0]) }
        delete = RowSQL.delete(from: table)
        columnIndexes = Dictionary(uniqueKeysWithValues: columnNames.enumerated().map { ($1, $0) })
    }

    /// The index of the column named `name`. A model of a few columns compares the name with
    /// each column's: hashing it costs more.
    func index(ofColumn name: String) -> Int? {
        guard columnNames.count <= 16 else { return columnIndexes[name] }
        return columnNames.firstIndex { $0.hasSameUTF8(as: name) }
    }

    /// The property of column `index` with its type's name, `Order.purchaseNum`, for messages.
    func propertyName(ofColumn index: Int) -> String {
        "\(typeName).\(propertyNames[index])"
    }

    /// The SQL of `type`, built on first use.
    static func of(_ type: any PersistentModel.Type) -> ModelSQL {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0.sql(of: key) }) { return cached }
        let built = ModelSQL(type)
        cache.withLock { $0.keep(built, for: key) }
        return built
    }

    /// The SQL built so far, by model type, and the last type asked for: a model's set asks for
    /// its type twice (to write, then to apply the commit), so that one is found without
    /// hashing.
    private struct Cache {
        var byType: [ObjectIdentifier: ModelSQL] = [:]
        var last: (type: ObjectIdentifier, sql: ModelSQL)?

        mutating func sql(of type: ObjectIdentifier) -> ModelSQL? {
            if let last, last.type == type { return last.sql }
            guard let found = byType[type] else { return nil }
            last = (type, found)
            return found
        }

        mutating func keep(_ sql: ModelSQL, for type: ObjectIdentifier) {
            byType[type] = sql
            last = (type, sql)
        }
    }

    private static let cache = Locked(Cache())
}
