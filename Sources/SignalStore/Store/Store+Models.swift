extension Store {
    /// Inserts `object`'s row. When this returns, `object` is *managed*: it is the live instance
    /// for its row, and setting a property writes through.
    /// - Throws: ``StoreError`` if the row is rejected (constraint, duplicate key…), the object
    ///   is already managed, or the model does not match its table.
    public func insert<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        guard case .unmanaged = object._$model.link else {
            throw .notManaged("this \(Model.self) is already in a store; insert a new object instead")
        }
        try write { state, connection in
            try checkSchema(Model.self, state, connection)
            try connection.statement(ModelSQL.of(Model.self).insert).run(object._$values())
            let rowID = connection.lastInsertRowID
            object._$model.link = .managed(self, rowID: rowID)
            if let displaced = state.registry.register(object, table: Model._$table, rowID: rowID) {
                publisher.enqueue([.notification { displaced._$model.completeAll() }])
            }
            state.transaction?.recordInsert(object, table: Model._$table, rowID: rowID)
        }
    }

    /// The object whose primary key is `id`: the live instance if there is one, else one read
    /// from the database (and live from then on); `nil` if there is no such row.
    /// - Parameters:
    ///   - type: The model type.
    ///   - id: The primary key value.
    public func find<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(StoreError) -> Model? {
        let key = Model._$columns[Model.primaryKeyIndex].name
        return try all(Model.self, where: "\(quotedIdentifier(key)) = ?", arguments: [id.sqliteValue]).first
    }

    /// The objects matching `predicate`, live instances where they exist.
    ///
    /// ```swift
    /// let open = try store.all(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id")
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - predicate: An SQL `WHERE` fragment, or `nil` for every row.
    ///   - arguments: Values bound to the fragment's `?` parameters (never spliced into SQL).
    ///   - orderBy: An SQL `ORDER BY` fragment, or `nil` for rowid order.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil
    ) throws(StoreError) -> [Model] {
        do {
            return try database.withLock { state -> [Model] in
                guard let connection = state.connection else { throw StoreError.closed }
                try checkSchema(Model.self, state, connection)
                var sql = ModelSQL.of(Model.self).select
                if let predicate { sql += " WHERE \(predicate)" }
                sql += " ORDER BY \(orderBy ?? "rowid")"
                return try connection.statement(sql).rows(arguments).map { row in
                    try materialize(Model.self, row: row, state)
                }
            }
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Deletes `object`'s row. Its signals complete once the deletion commits; writing to it
    /// afterwards reports ``StoreError/rowDeleted(_:)``.
    public func delete<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        guard let rowID = object._$model.rowID else {
            throw .notManaged("this \(Model.self) is not in a store (insert it, or find it, first)")
        }
        try write { _, connection in
            try connection.statement(ModelSQL.of(Model.self).delete).run([.integer(rowID)])
        }
    }

    /// Failures of writes that cannot throw: a property set on a managed object outside a
    /// transaction. The object keeps the value the database holds.
    public var errors: Signal<StoreError, Never> {
        errorSubject.signal
    }

    /// The objects matching `predicate`, now and after every committed change to the table.
    ///
    /// Replays the current result on subscribe, then sends the new result after each change to
    /// `Model`'s table (by any writer).
    /// - Parameters:
    ///   - type: The model type.
    ///   - predicate: An SQL `WHERE` fragment, or `nil` for every row.
    ///   - arguments: Values bound to the fragment's `?` parameters.
    ///   - orderBy: An SQL `ORDER BY` fragment, or `nil` for rowid order.
    public func signal<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil
    ) -> Signal<[Model], Never> {
        let table = Model._$table
        let changes = self.changes().filter { $0.table == table }.map { _ in () }.catch { _ in Signal<Void, Never>.empty }
        return Signal<Void, Never>.merge(.just(()), changes).compactMap { [self] _ in
            try? all(Model.self, where: predicate, arguments: arguments, orderBy: orderBy)
        }
    }

    /// The live instance for `row` (`rowid` first, then the columns), creating it if needed.
    private func materialize<Model: PersistentModel>(_ type: Model.Type, row: [SQLiteValue], _ state: StoreDatabase.State) throws -> Model {
        guard case .integer(let rowID) = row[0] else { throw StoreError.schemaMismatch("table '\(Model._$table)' has no rowid") }
        if let live = state.registry.object(table: Model._$table, rowID: rowID) as? Model { return live }
        let object = try Model(_$row: ModelRow(values: Array(row.dropFirst())))
        object._$model.link = .managed(self, rowID: rowID)
        state.registry.register(object, table: Model._$table, rowID: rowID)
        return object
    }

    /// Writes one column of a managed object: an `UPDATE` in its own transaction, or in the open
    /// one. Equal values write nothing. Failures go to ``errors`` (or fail the transaction).
    func writeColumn<Model: PersistentModel>(_ object: Model, column index: Int, rowID: Int64, value: SQLiteValue) {
        do {
            try write { state, connection in
                let original = object._$value(column: index)
                guard original != value else { return }
                try connection.statement(ModelSQL.of(Model.self).updates[index]).run([value, .integer(rowID)])
                guard connection.changes > 0 else {
                    throw StoreError.rowDeleted("cannot set \(Model.self).\(Model._$columns[index].property): its row in '\(Model._$table)' no longer exists")
                }
                if let transaction = state.transaction {
                    transaction.recordColumn(.init(object: object, column: index, original: original))
                    _ = object._$apply(column: index, value: value)
                }
            }
        } catch {
            let failed = database.withLock { state -> Bool in
                guard let transaction = state.transaction else { return false }
                if transaction.failure == nil { transaction.failure = error }
                return true
            }
            if !failed { report(error) }
        }
    }

    /// Sends a failure of a write that could not throw to ``errors``.
    func report(_ error: StoreError) {
        errorSubject.send(error)
    }
}
