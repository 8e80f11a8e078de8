extension Store {
    /// The objects matching `filter`, in the given order, with the named relationships loaded:
    /// one query for the objects and one per relationship, however many objects there are,
    /// instead of one per object on first read.
    ///
    /// ```swift
    /// func ordersWithCustomers(_ store: Store) throws -> [Order] {
    ///     try store.all(Order.self, where: \.status == "open", orderBy: .ascending(\.id), including: \.customer)
    /// }
    /// ```
    /// - A `@Parent` (`\.customer`): the parents every object names, linked to it, so reading
    ///   `order.customer` afterwards is a lookup. An object whose key is NULL or names no row
    ///   has no parent.
    /// - A `@Children` (`\.orders`): every object's children, in the relationship's order, as
    ///   the live result `customer.orders` returns, with its objects read.
    ///
    /// The related objects are the live instances: one object per row, however many objects
    /// name it.
    /// - Throws: ``StoreError/invalidArgument(_:)`` when a key path is not a relationship of
    ///   the model; what ``all(_:where:orderBy:)`` throws.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where filter: ModelFilter<Model>? = nil,
        orderBy orderings: ModelOrdering<Model>...,
        including relationship: PartialKeyPath<Model>, _ more: PartialKeyPath<Model>...
    ) throws(StoreError) -> [Model] {
        let included = try ([relationship] + more).map { keyPath throws(StoreError) -> (ModelRelationship, PartialKeyPath<Model>) in
            guard let found = Model._$isolation.relationship(of: keyPath) else {
                let column = Model._$isolation.index(of: keyPath).flatMap { $0 < Model._$columns.count ? Model._$columns[$0].property : nil }
                throw .invalidArgument("\(column.map { "'\($0)'" } ?? "\(keyPath)") is not a relationship of \(Model.self); including: takes @Parent and @Children properties")
            }
            return (found, keyPath)
        }
        let objects = try all(Model.self, where: filter?.sql, arguments: filter?.arguments ?? [], orderBy: ModelOrdering.clause(orderings))
        for (relationship, keyPath) in included {
            switch relationship.kind {
            case .parent: try linkParents(of: objects, through: relationship, parent: relationship.related)
            case .children: try seedChildren(of: objects, through: relationship, keyPath: keyPath, child: relationship.related)
            }
        }
        return objects
    }

    /// Reads the children of every object in `parents` in one query and gives each parent its
    /// live result of them, seeded from that read.
    ///
    /// Each result is made (listening to commits) before the read, so a commit between the two
    /// is not lost: the read's snapshot includes it, or the result sees it and runs its own
    /// query.
    private func seedChildren<Model: PersistentModel, Child: PersistentModel>(
        of parents: [Model], through relationship: ModelRelationship, keyPath: PartialKeyPath<Model>, child: Child.Type
    ) throws(StoreError) {
        guard let resolved = self.relationship(relationship.property, of: Model.self) else { return }
        var seeded: [(key: SQLiteValue, results: LiveResults<Child>)] = []
        for parent in parents {
            let key = parent._$value(column: resolved.parentColumnIndex)
            if let current = parent._$model.relatedLink(relationship.property) as? ChildrenLink<Child>, current.key == key { continue }
            parent._$model.setRelatedLink(relationship.property, ChildrenToSeed())
            if let made = parent[keyPath: keyPath] as? LiveResults<Child> { seeded.append((key, made)) }
        }
        guard let query = seeded.first?.results.query else { return }
        var keys: [SQLiteValue] = []
        var seen: Set<SQLiteValue> = []
        // A NULL key names no child: its result is seeded empty.
        for (key, _) in seeded where key != .null && seen.insert(key).inserted { keys.append(key) }
        var rows: [SQLiteValue: [(rowID: Int64, key: [SQLiteValue])]] = [:]
        var objects: [SQLiteValue: [Int64: Child]] = [:]
        var snapshot: (seq: Int64, ordering: ResultsOrdering?) = (0, nil)
        do {
            // With no key to read (every parent's is NULL), one read still takes the ordering
            // and the snapshot the results start from.
            let conditions = Self.membership(of: resolved.childColumn, in: keys)
            for condition in conditions.isEmpty ? [nil] : conditions.map(Optional.some) {
                let (fetched, seq, ordering) = try reading { connection, seq in
                    let ordering = query.ordering(self, connection)
                    let fetched = try condition.map { try fetch(Child.self, where: $0.text, arguments: $0.arguments, orderBy: query.orderBy, connection, seq) }
                    return (fetched, try seq.get(), ordering)
                }
                snapshot = (max(snapshot.seq, seq), ordering)
                let sortColumns = Self.sortColumns(ordering, of: Child.self)
                for object in try fetched?.resolved({ rowID in try reload(Child.self, rowID: rowID) }) ?? [] {
                    guard let rowID = object._$model.rowID else { continue }
                    let key = object._$value(column: resolved.childColumnIndex)
                    rows[key, default: []].append((rowID, sortColumns.map { $0.map(object._$value(column:)) ?? .integer(rowID) }))
                    objects[key, default: [:]][rowID] = object
                }
            }
        } catch {
            throw StoreError(error)
        }
        for (key, results) in seeded {
            results.seed(.init(rows: rows[key] ?? [], ordering: snapshot.ordering, seq: snapshot.seq), objects: objects[key] ?? [:])
        }
        resumeReading(after: snapshot.seq)
    }

    /// The columns `ordering` sorts by, as indexes into the model's columns (`nil`: the rowid),
    /// so a child's sort key is its values there, as a result's own read selects them.
    private static func sortColumns<Child: PersistentModel>(_ ordering: ResultsOrdering?, of type: Child.Type) -> [Int?] {
        let names = Child._$columnNames
        return (ordering?.terms ?? []).map { $0.term.column == "rowid" ? nil : names.firstIndex(of: $0.term.column) }
    }

    /// `column IN (keys)` as few conditions as it takes: one whose SQL is the same for any
    /// number of integer and text keys (a ``KeyList``, so one cached statement serves every
    /// call), or, for other keys, conditions of at most 32,000 bound values (SQLite binds at most
    /// 32,766 to one statement).
    private static func membership(of column: String, in keys: [SQLiteValue]) -> [SQL] {
        guard !keys.isEmpty else { return [] }
        guard let list = KeyList.of(keys) else {
            return stride(from: 0, to: keys.count, by: 32_000).map { start in
                SQL("\(identifier: column) IN (\(values: Array(keys[start..<min(start + 32_000, keys.count)])))")
            }
        }
        return [SQL("\(identifier: column) IN (SELECT value FROM json_each(\(value: list)))")]
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
