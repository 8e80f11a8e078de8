extension Store {
    /// Checks a model against its table the first time it is used: every property's column
    /// must exist, with a declared type that can hold the property's values.
    func checkSchema<Model: PersistentModel>(_ type: Model.Type, _ connection: Connection) throws {
        guard checkedModels.withLock({ $0.insert(ObjectIdentifier(Model.self)).inserted }) else { return }
        do {
            guard let table = try schema.table(Model._$table, connection) else {
                throw StoreError.schemaMismatch("\(Model.self) maps to table '\(Model._$table)', which does not exist; create it in a migration or fix @Model(table:)")
            }
            for column in Model._$columns {
                guard let declared = table.columns.first(where: { $0.name == column.name }) else {
                    let names = table.columns.map(\.name)
                    throw StoreError.schemaMismatch("property '\(column.property)' of \(Model.self) maps to column '\(column.name)', which table '\(Model._$table)' does not have\(Suggestion.phrase(for: column.name, in: names)); add the column in a migration or name an existing one with @Column (its columns are: \(names.joined(separator: ", ")))")
                }
                if !StorageKind.isCompatible(swiftType: column.valueType, affinity: declared.affinity) {
                    throw StoreError.schemaMismatch("property '\(column.property)' of \(Model.self) is \(column.valueType), but column '\(column.name)' of table '\(Model._$table)' is declared \(declared.declaredType); change the property's type or the column's")
                }
            }
            try checkRelationships(of: Model.self, connection)
        } catch {
            _ = checkedModels.withLock { $0.remove(ObjectIdentifier(Model.self)) }
            throw error
        }
    }
}

/// What kind of SQLite value a Swift type stores, for the schema check.
enum StorageKind {
    case integer, real, text, blob

    /// The kind of a property type, unwrapping optionals; `nil` when unknown (no check).
    static func of(_ type: Any.Type) -> StorageKind? {
        if let optional = type as? any OptionalProtocol.Type { return of(optional.wrappedType) }
        switch type {
        case is Bool.Type, is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type: return .integer
        case is Double.Type, is Float.Type: return .real
        case is String.Type: return .text
        default: return nil
        }
    }

    /// Whether a column of `affinity` can hold values of `swiftType`: text goes in text columns
    /// only, numbers in numeric ones, and a column without a type (or `BLOB`) holds anything.
    static func isCompatible(swiftType: Any.Type, affinity: ColumnAffinity) -> Bool {
        guard let kind = of(swiftType) else { return true }
        switch (kind, affinity) {
        case (_, .blob): return true
        case (.text, .text): return true
        case (.text, _), (_, .text): return false
        default: return true   // numbers in numeric columns
        }
    }
}

/// Lets the schema check see through `Optional`.
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
}
