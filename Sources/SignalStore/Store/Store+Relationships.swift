extension Store {
    /// Matches every relationship of `Model` with the schema's foreign keys, keeping the
    /// result; called by the schema check on first use of the model.
    /// - Throws: ``StoreError/schemaMismatch(_:)`` naming the relationship and the foreign key
    ///   it needs.
    func checkRelationships<Model: PersistentModel>(of type: Model.Type, _ connection: Connection) throws {
        for relationship in Model._$relationships {
            let resolved = try Self.resolve(relationship, of: Model.self, schema, connection)
            relationships.withLock { $0[RelationshipID(Model.self, relationship.property)] = resolved }
        }
    }

    /// The relationship `property` of `model` as the schema has it, or `nil` after reporting on
    /// ``errors`` why it does not match.
    func relationship(_ property: String, of model: any PersistentModel.Type) -> ResolvedRelationship? {
        if let known = relationships.withLock({ $0[RelationshipID(model, property)] }) { return known }
        do {
            return try readConnection { connection in
                try checkSchema(model, connection)
                return relationships.withLock { $0[RelationshipID(model, property)] }
            }
        } catch {
            report(StoreError(error))
            return nil
        }
    }

    /// The live object of `Model` whose `column` holds `value`, or `nil` (no such row, or a
    /// failure reported on ``errors``).
    func object<Model: PersistentModel>(_ type: Model.Type, column: String, value: SQLiteValue) -> Model? {
        do {
            return try all(Model.self, where: SQL("\(identifier: column) = ?").text, arguments: [value]).first
        } catch {
            report(error)
            return nil
        }
    }

    /// The live result of the objects of `Model` whose `column` holds `value`.
    func results<Model: PersistentModel>(_ type: Model.Type, column: String, value: SQLiteValue, orderBy: [ModelOrdering<Model>], deferred: Bool) -> LiveResults<Model> {
        let query = ResultsQuery<Model>(filter: .comparison(column: column, .same, value), orderBy: orderBy)
        return LiveResults(store: self, query: query, deferred: deferred)
    }

    /// Finds the foreign key a relationship stands on.
    private static func resolve(_ relationship: ModelRelationship, of model: any PersistentModel.Type, _ schema: SchemaCache, _ connection: Connection) throws -> ResolvedRelationship {
        let (child, parent): (any PersistentModel.Type, any PersistentModel.Type) =
            relationship.kind == .parent ? (model, relationship.related) : (relationship.related, model)
        let declaration = "relationship '\(relationship.property)' of \(model)"
        guard let keyIndex = child._$columnProperties.firstIndex(of: relationship.keyProperty) else {
            throw StoreError.schemaMismatch("\(declaration) names key property '\(relationship.keyProperty)', which is not a persisted property of \(child); name the property that holds the key")
        }
        let keyColumn = child._$columnNames[keyIndex]
        let keys = try schema.rules(child._$table, connection).foreignKeys
        guard let key = keys.first(where: { $0.columns == [keyColumn] && $0.parent.lowercased() == parent._$table.lowercased() }) else {
            let existing = keys.isEmpty ? "it has none" : "it has " + keys.map(\.sql).joined(separator: ", ")
            throw StoreError.schemaMismatch("\(declaration) needs a foreign key from \(child._$table).\(keyColumn) to \(parent._$table), and \(existing); add 'REFERENCES \(parent._$table)' to column \(keyColumn) in a migration, or name the key column that has one")
        }
        let parentKey = try schema.table(parent._$table, connection)?.primaryKey ?? []
        guard let referenced = key.referencing(parentKey).referenced.first,
              let parentIndex = parent._$columnNames.firstIndex(where: { $0.lowercased() == referenced.lowercased() })
        else {
            throw StoreError.schemaMismatch("\(declaration) stands on \(key.sql), whose referenced column \(parent) does not map; add a property for it to \(parent)")
        }
        return ResolvedRelationship(
            childTable: child._$table, childColumn: keyColumn, childColumnIndex: keyIndex,
            parentColumn: parent._$columnNames[parentIndex], parentColumnIndex: parentIndex
        )
    }
}

/// A model type's relationship, as the key of the store's resolved relationships.
struct RelationshipID: Hashable {
    let model: ObjectIdentifier
    let property: String

    init(_ model: any PersistentModel.Type, _ property: String) {
        self.model = ObjectIdentifier(model)
        self.property = property
    }
}
