extension Store: ModelHost {
    /// ``StoreOperations/insert(_:)``.
    func insertObject<Model: PersistentModel>(_ object: Model) throws(StoreError) {
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

    /// ``StoreOperations/delete(_:)``.
    func deleteObject<Model: PersistentModel>(_ object: Model) throws(StoreError) {
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
            // The closure takes the write's parts, not the write: capturing the write copied it
            // whole, through its type's copy function, twice a set.
            let sql = write.sql, column = write.column, value = write.value, rowID = write.rowID
            return try writeOneStatement { state, connection in
                try connection.statement(sql.updates[column]).run(value, .integer(rowID))
                guard connection.changes > 0 else {
                    throw StoreError.rowDeleted("cannot set \(sql.propertyName(ofColumn: column)): its row in '\(sql.table)' no longer exists")
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
