extension Store: ModelHost {
    /// Inserts `object`'s row. When this returns, `object` is *managed*: it is the live instance
    /// for its row, and setting a property writes through.
    /// - Throws: ``StoreError`` if the row is rejected (constraint, duplicate key…), the object
    ///   is already managed, or the model does not match its table.
    public func insert<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        guard case .unmanaged = object._$model.link else {
            throw .notManaged("this \(Model.self) is already in a store; insert a new object instead")
        }
        try write { state, connection in
            try checkSchema(Model.self, connection)
            try connection.statement(ModelSQL.of(Model.self).insert).run(object._$values())
            let rowID = connection.lastInsertRowID
            object._$model.link = .managed(self, rowID: rowID)
            if let displaced = registry.withLock({ $0.register(object, table: Model._$table, rowID: rowID) }) {
                publisher.enqueue([.model(.ended(displaced))])
            }
            state.transaction?.recordInsert(object, table: Model._$table, rowID: rowID)
        }
    }

    /// The object whose primary key is `id`: the live instance if there is one, else one read
    /// from the database (and live from then on); `nil` if there is no such row.
    ///
    /// Reads the last committed state on a read-only connection, without waiting for writers
    /// (inside ``transaction(_:)``, the transaction's own state).
    /// - Parameters:
    ///   - type: The model type.
    ///   - id: The primary key value.
    public func find<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(StoreError) -> Model? {
        try all(Model.self, where: ModelSQL.of(Model.self).primaryKeyCondition, arguments: [id.sqliteValue]).first
    }

    /// The objects matching `predicate`, live instances where they exist.
    ///
    /// Reads the last committed state on a read-only connection, without waiting for writers
    /// (inside ``transaction(_:)``, the transaction's own state). For several reads that must
    /// agree, use ``read(_:)``.
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
            return try query(Model.self, where: predicate, arguments: arguments, orderBy: orderBy)
        } catch {
            throw StoreError(error)
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

    /// Failures of work that cannot throw to a caller: a property set on a managed object
    /// outside a transaction (the object keeps the value the database holds), reading other
    /// connections' commits, re-running a query signal. The background work retries at its
    /// next turn (the next poll, the next commit).
    public var errors: Signal<StoreError, Never> {
        errorSubject.signal
    }

    /// Writes one column of a managed object (``ModelHost``): an `UPDATE` that commits alone
    /// (see ``writeOneStatement(_:)``), or in the open transaction. Failures go to ``errors``
    /// (or fail the transaction).
    func writeColumn(_ write: ColumnWrite) -> ColumnWriteOutcome {
        do {
            return try writeOneStatement { state, connection in
                try connection.statement(write.sql.updates[write.column]).run([write.value, .integer(write.rowID)])
                guard connection.changes > 0 else {
                    throw StoreError.rowDeleted("cannot set \(write.propertyName): its row in '\(write.sql.table)' no longer exists")
                }
                return state.transaction.map(ColumnWriteOutcome.joined) ?? .committed
            }
        } catch {
            let failed = database.withLock { state -> Bool in
                guard let transaction = state.transaction else { return false }
                if transaction.failure == nil { transaction.failure = error }
                return true
            }
            if !failed { report(error) }
            return .failed
        }
    }

    /// Sends a failure of a write that could not throw to ``errors``.
    func report(_ error: StoreError) {
        errorSubject.send(error)
    }
}
