extension Store {
    /// Runs several reads in one snapshot of the database: every read in `body` sees the same
    /// committed state, whatever other threads and processes commit meanwhile, and none of them
    /// waits for a writer.
    ///
    /// ```swift
    /// func openOrders(_ store: Store) throws -> (count: Int, first: Order?) {
    ///     try store.read { snapshot in
    ///         let count = try snapshot.count(Order.self, where: "status = ?", arguments: [.text("open")])
    ///         let first = try snapshot.all(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id").first
    ///         return (count, first)
    ///     }
    /// }
    /// ```
    ///
    /// The snapshot decides which rows the reads return. The objects are the live instances,
    /// which always show the latest committed values this store has delivered, so an object
    /// may already show a commit made after the snapshot began.
    ///
    /// Inside ``transaction(_:)`` the reads run on the writer and see the transaction's own
    /// writes. Elsewhere they run on a read-only connection of the store's pool; in an
    /// in-memory store, on the writer.
    /// - Returns: What `body` returns.
    /// - Throws: ``StoreError`` from the reads, or what `body` throws.
    public func read<Result>(_ body: (StoreSnapshot) throws -> Result) throws -> Result {
        try reading { connection, seq in try body(StoreSnapshot(store: self, connection: connection, seq: seq)) }
    }

    /// Runs `body` with a connection in one read snapshot (see ``reading(_:)``); errors come
    /// out as `body` threw them, so a tool gets its own errors back.
    package func readConnection<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        try reading { connection, _ in try body(connection) }
    }

    /// Runs `body` in one read snapshot: on the writer inside the calling thread's open
    /// transaction, else on a reader (on the writer, under its lock, for an in-memory store).
    /// Errors come out as `body` threw them.
    func reading<Result>(_ body: (Connection, SnapshotSeq) throws -> Result) throws -> Result {
        let inTransaction = try database.withLockIfInTransaction { _, connection in
            // The transaction's own entries are not committed yet: objects loaded here are
            // current as of the last entry read, and take the transaction's entries on commit.
            try body(connection, SnapshotSeq { [registry] in registry.withLock { $0.lastSeenSeq } })
        }
        if let inTransaction { return inTransaction }
        guard let readers else { return try readingOnWriter(body) }
        return try readers.read { connection in
            try body(connection, SnapshotSeq { try Journal.highestSeq(connection) })
        }
    }

    /// Runs `body` on the writer connection, under its lock.
    private func readingOnWriter<Result>(_ body: (Connection, SnapshotSeq) throws -> Result) throws -> Result {
        try database.withLock { state in
            guard let connection = state.connection else { throw StoreError.closed }
            return try body(connection, SnapshotSeq { try Journal.highestSeq(connection) })
        }
    }

    /// The live instances of the rows matching the query in the snapshot on `connection`.
    func fetch<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String?,
        arguments: [SQLiteValue],
        orderBy: String?,
        _ connection: Connection,
        _ seq: SnapshotSeq
    ) throws -> [Model] {
        try checkSchema(Model.self, connection)
        var sql = ModelSQL.of(Model.self).select
        if let predicate { sql += " WHERE \(predicate)" }
        sql += " ORDER BY \(orderBy ?? "rowid")"
        let rows = try connection.statement(sql).rows(arguments)
        guard !rows.isEmpty else { return [] }
        return try instances(Model.self, rows: rows, snapshot: seq)
    }

    /// The live instance for each row (`rowid` first, then the columns), creating and filing
    /// those that have none. A row that changed between the snapshot and the journal position
    /// the live objects are at is loaded again, as it is now, so no object starts stale; a row
    /// deleted meanwhile is left out.
    private func instances<Model: PersistentModel>(_ type: Model.Type, rows: [[SQLiteValue]], snapshot seq: SnapshotSeq) throws -> [Model] {
        let snapshot = try seq.get()
        var objects = [Model?](repeating: nil, count: rows.count)
        var stale: [(offset: Int, rowID: Int64)] = []
        try registry.withLock { registry in
            for (offset, row) in rows.enumerated() {
                guard case .integer(let rowID) = row[0] else {
                    throw StoreError.schemaMismatch("table '\(Model._$table)' has no rowid; a model's table must be an ordinary (rowid) table")
                }
                if let live = registry.object(table: Model._$table, rowID: rowID) as? Model {
                    objects[offset] = live
                } else if registry.isCurrent(table: Model._$table, rowID: rowID, snapshot: snapshot) {
                    let object = try Model(_$row: ModelRow(values: Array(row.dropFirst())))
                    object._$model.link = .managed(self, rowID: rowID)
                    registry.file(object, table: Model._$table, rowID: rowID, snapshot: snapshot)
                    objects[offset] = object
                } else {
                    stale.append((offset, rowID))
                }
            }
        }
        for (offset, rowID) in stale {
            objects[offset] = try reloadOnWriter(Model.self, rowID: rowID)
        }
        return objects.compactMap { $0 }
    }

    /// Loads one row as it is now, on the writer (whose lock keeps the journal position still).
    private func reloadOnWriter<Model: PersistentModel>(_ type: Model.Type, rowID: Int64) throws -> Model? {
        try readingOnWriter { connection, seq in
            let rows = try connection.statement(ModelSQL.of(Model.self).select + " WHERE rowid = ?").rows([.integer(rowID)])
            return try instances(Model.self, rows: rows, snapshot: seq).first
        }
    }
}
