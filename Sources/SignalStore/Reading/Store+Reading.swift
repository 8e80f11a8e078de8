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
    /// Other reads that `body` makes on its thread (``find(_:id:)``, ``all(_:where:arguments:orderBy:)``)
    /// join the same snapshot.
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

    /// Runs `body`, one statement that reads a few rows by rowid, where those rows' pages are
    /// most likely cached: on the writer when its lock is free (a commit's delivery reads the rows
    /// the writer just wrote, and a reader's page cache was emptied by that very commit), else as
    /// ``reading(_:)``. Never waits for the writer. One statement sees one snapshot, which is all
    /// `body` may rely on.
    func readingRecentRows<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        if let onWriter = try database.withLockIfFree({ _, connection in .some(try body(connection)) }) { return onWriter }
        return try reading { connection, _ in try body(connection) }
    }

    /// Runs `body` on the writer connection, under its lock.
    private func readingOnWriter<Result>(_ body: (Connection, SnapshotSeq) throws -> Result) throws -> Result {
        try database.withLock { state in
            guard let connection = state.connection else { throw StoreError.closed }
            return try body(connection, SnapshotSeq { try Journal.highestSeq(connection) })
        }
    }

    /// The live instances of the rows matching the query in the snapshot on `connection`; rows
    /// that changed between the snapshot and the live objects' journal position are left to
    /// reload (see ``Fetched``).
    func fetch<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String?,
        arguments: [SQLiteValue],
        orderBy: String?,
        _ connection: Connection,
        _ seq: SnapshotSeq
    ) throws -> Fetched<Model> {
        try checkSchema(Model.self, connection)
        modelQueryCount.withLock { $0 += 1 }
        var sql = ModelSQL.of(Model.self).select
        if let predicate { sql += " WHERE \(predicate)" }
        sql += " ORDER BY \(orderBy ?? "rowid")"
        let rows = try connection.statement(sql).rows(arguments)
        guard !rows.isEmpty else { return Fetched(objects: [], stale: []) }
        return try instances(Model.self, rows: rows, snapshot: try seq.get())
    }

    /// The objects of one query: a live instance per row, except for the rows in `stale`.
    struct Fetched<Model: PersistentModel> {
        var objects: [Model?]
        /// Rows that changed between the snapshot and the journal position of the live objects
        /// (an object made from the snapshot would start stale): their offsets and rowids.
        let stale: [(offset: Int, rowID: Int64)]

        /// The objects, with each stale row loaded again by `reload` (as it is now; a row
        /// deleted meanwhile is left out).
        func resolved(_ reload: (Int64) throws -> Model?) throws -> [Model] {
            var objects = objects
            for (offset, rowID) in stale { objects[offset] = try reload(rowID) }
            return objects.compactMap { $0 }
        }
    }

    /// Runs a query in one snapshot and returns its live instances; stale rows are loaded
    /// again from a fresh snapshot (see ``reload(_:rowID:)``).
    func query<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String?,
        arguments: [SQLiteValue],
        orderBy: String?
    ) throws -> [Model] {
        let fetched = try reading { connection, seq in
            try fetch(Model.self, where: predicate, arguments: arguments, orderBy: orderBy, connection, seq)
        }
        return try fetched.resolved { rowID in try reload(Model.self, rowID: rowID) }
    }

    /// The live instance for each row (`rowid` first, then the columns), creating and filing
    /// those that have none, unless their row is stale.
    private func instances<Model: PersistentModel>(_ type: Model.Type, rows: [[SQLiteValue]], snapshot: Int64) throws -> Fetched<Model> {
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
        return Fetched(objects: objects, stale: stale)
    }

    /// Loads one row as it is now: from fresh snapshots (a commit landing between the read and
    /// the filing again makes it try again), then, if commits keep landing, on the writer,
    /// whose lock keeps the journal position still.
    func reload<Model: PersistentModel>(_ type: Model.Type, rowID: Int64) throws -> Model? {
        let sql = ModelSQL.of(Model.self).selectByRowID
        for _ in 0..<3 {
            let fetched = try reading { connection, seq in
                try instances(Model.self, rows: try connection.statement(sql).rows([.integer(rowID)]), snapshot: try seq.get())
            }
            if fetched.stale.isEmpty { return fetched.objects.first ?? nil }
        }
        return try reloadOnWriter(Model.self, rowID: rowID)
    }

    /// Loads one row as it is now, on the writer (under its lock no entry is being applied, and
    /// its snapshot includes every commit).
    func reloadOnWriter<Model: PersistentModel>(_ type: Model.Type, rowID: Int64) throws -> Model? {
        try readingOnWriter { connection, seq in
            let rows = try connection.statement(ModelSQL.of(Model.self).selectByRowID).rows([.integer(rowID)])
            return try instances(Model.self, rows: rows, snapshot: try seq.get()).objects.first ?? nil
        }
    }
}
