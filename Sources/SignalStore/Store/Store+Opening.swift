extension Store {
    /// Opens the connection of a store and brings the database up to date: the journal's
    /// tables, capture of every user table (tables created by other writers since the last
    /// open are captured from now on, their rows journaled as inserts), then the migrations.
    ///
    /// Adopting a file that has no journal yet (new, or a plain SQLite database) happens in one
    /// transaction, and write-ahead logging is switched on only after it commits: if a
    /// migration fails, the file is left exactly as it was.
    static func openConnection(path: String, migrations: [Migration], busyTimeout: Duration, schema: SchemaCache) throws -> Connection {
        let connection = try Connection(path: path, busyTimeout: busyTimeout, deferWAL: true)
        let isAdoption = try !Journal.exists(connection)
        // Migrations run without foreign-key enforcement (see Migrator); this pragma is ignored
        // inside a transaction, so it is set around the whole setup.
        try connection.execute("PRAGMA foreign_keys=OFF")
        if isAdoption {
            do {
                try connection.transaction { try setUp(connection, migrations, schema) }
            } catch let error as MigrationError where error.kind == .statementFailed && hasUserTables(connection) {
                throw error.adopting(path)
            }
        } else {
            try setUp(connection, migrations, schema)
        }
        try connection.execute("PRAGMA foreign_keys=ON")
        try connection.enableWAL()
        return connection
    }

    private static func hasUserTables(_ connection: Connection) -> Bool {
        (try? TableSchema.userTables(connection).isEmpty) == false
    }

    private static func setUp(_ connection: Connection, _ migrations: [Migration], _ schema: SchemaCache) throws {
        try Journal.attach(schema, connection)
        try Migrator(migrations: migrations).migrate(schema, connection)
    }

    /// Captures tables and columns that appeared since the last check (created by this store's
    /// ``execute(_:arguments:)`` or by another writer), inside the open write transaction, or
    /// in one of its own.
    func captureSchemaChanges(_ state: StoreDatabase.State, _ connection: Connection) throws {
        let version = try connection.schemaVersion()
        guard version != state.schemaVersion, !connection.isReadOnly else { return }
        if try Journal.isCaptureStale(schema, connection) {
            try Journal.installCapture(schema, connection, snapshotNewTables: true)
        }
        state.schemaVersion = try connection.schemaVersion()
    }
}
