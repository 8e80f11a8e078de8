extension Store {
    /// How ``init(existing:access:pollInterval:busyTimeout:)`` opens a database.
    package enum Access: Sendable {
        /// Reads only: nothing in the file changes, every write fails with
        /// ``SQLiteError/readOnly``.
        case readOnly
        /// Reads and writes; capture triggers are installed for tables created since the last
        /// open (by a `sqlite3` shell, say).
        case readWrite
    }

    /// Opens an existing SignalStore database as it is, without applying migrations: for tools
    /// such as the `signalstore` CLI that work on any app's database.
    ///
    /// The caller checks that `path` holds a SignalStore database (it has the change journal).
    /// - Throws: ``StoreError`` if the file cannot be opened or is not a database.
    package convenience init(
        existing path: String,
        access: Access,
        pollInterval: Duration = .milliseconds(50),
        busyTimeout: Duration = .seconds(5)
    ) throws(StoreError) {
        let connection: Connection
        let schema = SchemaCache()
        do {
            connection = try Connection(path: path, busyTimeout: busyTimeout, readOnly: access == .readOnly)
            if access == .readWrite {
                try connection.transaction { try Journal.attach(schema, connection) }
            }
        } catch {
            throw StoreError(error)
        }
        self.init(connection: connection, schema: schema, pollInterval: pollInterval, busyTimeout: busyTimeout, readers: 2)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`), then publishes the new journal
    /// entries. If `body` throws, the transaction rolls back and the error comes out as `body`
    /// threw it, so a tool gets its own errors back.
    package func writeTransaction<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        try writing { _, connection in try body(connection) }
    }

    /// Whether the database on `connection` has the store's journal and migration tables.
    package static func isSignalStoreDatabase(_ connection: Connection) throws -> Bool {
        try connection.tableExists(Journal.changes) && connection.tableExists(Migrator.table)
    }

    /// The migrations applied to this database, by version, with the change-feed seq each one
    /// applied after: what a consumer replaying the feed needs to apply them at the same points.
    public var appliedMigrations: [AppliedMigration] {
        get throws(StoreError) {
            do {
                return try readConnection { connection in try AppliedMigration.all(connection) }
            } catch {
                throw StoreError(error)
            }
        }
    }
}
