extension Store {
    /// The objects matching `filter`, in the given order, with the parents of the named
    /// `@Parent` relationships loaded and linked: one query for the objects and one per
    /// relationship, however many objects there are, instead of one per object on first read.
    ///
    /// ```swift
    /// func ordersWithCustomers(_ store: Store) throws -> [Order] {
    ///     try store.all(Order.self, where: \.status == "open", orderBy: .ascending(\.id), including: \.customer)
    /// }
    /// ```
    /// The parents are the live instances (one object per customer, however many orders name
    /// it), and reading `order.customer` afterwards is a lookup, not a query. An object whose
    /// key is NULL or names no row has no parent.
    /// - Throws: ``StoreError/invalidArgument(_:)`` when a key path is not a `@Parent`
    ///   relationship of the model; what ``all(_:where:orderBy:)`` throws.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>? = nil,
        orderBy orderings: ModelOrdering<Model>...,
        including relationship: PartialKeyPath<Model>, _ more: PartialKeyPath<Model>...
    ) throws(StoreError) -> [Model] {
        let included = try ([relationship] + more).map { keyPath throws(StoreError) -> ModelRelationship in
            guard let found = Model._$isolation.relationship(of: keyPath) else {
                throw .invalidArgument("\(keyPath) is not a relationship of \(Model.self); including: takes @Parent properties")
            }
            guard found.kind == .parent else {
                throw .invalidArgument("'\(found.property)' is a @Children relationship of \(Model.self); including: takes @Parent properties (a @Children result reads its rows on first use, in one query)")
            }
            return found
        }
        let objects = try all(Model.self, where: filter?.sql, arguments: filter?.arguments ?? [], orderBy: ModelOrdering.clause(orderings))
        for relationship in included {
            try linkParents(of: objects, through: relationship, parent: relationship.related)
        }
        return objects
    }

    /// `column IN (keys)` as few conditions as it takes: one whose SQL is the same for any
    /// number of integer and text keys (a JSON array, so one cached statement serves every
    /// call), or, for other keys, conditions of at most 32,000 bound values (SQLite binds at most
    /// 32,766 to one statement).
    private static func membership(of column: String, in keys: [SQLiteValue]) -> [SQL] {
        guard !keys.isEmpty else { return [] }
        var json = "["
        for (offset, key) in keys.enumerated() {
            if offset > 0 { json += "," }
            switch key {
            case .integer(let number): json += String(number)
            case .text(let text): JSONString.append(text, to: &json)
            default:
                return stride(from: 0, to: keys.count, by: 32_000).map { start in
                    SQL("\(identifier: column) IN (\(values: Array(keys[start..<min(start + 32_000, keys.count)])))")
                }
            }
        }
        return [SQL("\(identifier: column) IN (SELECT value FROM json_each(\(value: .text(json + "]"))))")]
    }

    /// Loads the parents `objects` name through `relationship` in one query and links each
    /// object to its own.
    private func linkParents<Model: PersistentModel, Parent: PersistentModel>(
        of objects: [Model], through relationship: ModelRelationship, parent: Parent.Type
    ) throws(StoreError) {
        // Reading the objects checked the model, which resolved its relationships.
        guard let resolved = self.relationship(relationship.property, of: Model.self) else { return }
        var keys: [SQLiteValue] = []
        var seen: Set<SQLiteValue> = []
        for object in objects {
            let key = object._$value(column: resolved.childColumnIndex)
            if key != .null, seen.insert(key).inserted { keys.append(key) }
        }
        var parents: [SQLiteValue: Parent] = [:]
        for condition in Self.membership(of: resolved.parentColumn, in: keys) {
            for parent in try all(Parent.self, where: condition.text, arguments: condition.arguments) {
                parents[parent._$value(column: resolved.parentColumnIndex)] = parent
            }
        }
        for object in objects {
            let key = object._$value(column: resolved.childColumnIndex)
            guard let parent = parents[key] else { continue }
            object._$model.setRelatedLink(relationship.property, ParentLink(parent, key: key, column: resolved.parentColumnIndex))
        }
    }
}
