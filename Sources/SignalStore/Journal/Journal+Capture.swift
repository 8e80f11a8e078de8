extension Journal {
    /// Brings every captured table's triggers up to date, in the open transaction (or its own).
    ///
    /// A table whose triggers differ in any way from what its schema needs gets all of them
    /// dropped and created again, in order (their order decides the order of entries). Triggers
    /// of tables that are no longer captured are dropped.
    /// - Parameter snapshotNewTables: Journal the rows of a table seen for the first time as
    ///   inserts, so replaying the feed rebuilds it. Off while migrating: a feed consumer
    ///   replays the migration itself (see ``AppliedMigration/afterSeq``).
    ///   - schema: The store's schema cache (inside a transaction it reads afresh).
    static func installCapture(_ schema: SchemaCache, _ connection: Connection, snapshotNewTables: Bool) throws {
        try connection.transaction {
            var existing = try existingTriggers(connection)
            for table in try schema.capturedTables(connection) {
                let triggers = CaptureTriggers(table: table)
                let current = existing.filter { $0.value.table == table.name }.mapValues(\.sql)
                existing = existing.filter { $0.value.table != table.name }
                guard current != Dictionary(uniqueKeysWithValues: triggers.all.map { ($0.name, $0.sql) }) else { continue }
                for name in current.keys { try connection.run("DROP TRIGGER \(identifier: name)") }
                for trigger in triggers.all { try connection.execute(trigger.sql) }
                if current.isEmpty, snapshotNewTables { try connection.execute(triggers.snapshotSQL) }
            }
            for name in existing.keys { try connection.run("DROP TRIGGER IF EXISTS \(identifier: name)") }
        }
    }

    /// Drops every capture trigger (before a migration changes the schema under them).
    static func removeCapture(_ connection: Connection) throws {
        for name in try existingTriggers(connection).keys {
            try connection.run("DROP TRIGGER \(identifier: name)")
        }
    }

    /// Whether the capture triggers differ from what the schema needs (a table, column or index
    /// was added or changed by a writer that does not install triggers).
    static func isCaptureStale(_ schema: SchemaCache, _ connection: Connection) throws -> Bool {
        var wanted: [String: String] = [:]
        for table in try schema.capturedTables(connection) {
            for trigger in CaptureTriggers(table: table).all { wanted[trigger.name] = trigger.sql }
        }
        return try existingTriggers(connection).mapValues(\.sql) != wanted
    }

    /// The capture triggers now in the schema: name → the table they are on and their SQL.
    private static func existingTriggers(_ connection: Connection) throws -> [String: (table: String, sql: String)] {
        let rows = try connection.statement(
            "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?"
        ).rows([.integer(Int64(CaptureTriggers.prefix.utf8.count)), .text(CaptureTriggers.prefix)])
        var triggers: [String: (table: String, sql: String)] = [:]
        for row in rows {
            if case .text(let name) = row[0], case .text(let table) = row[1], case .text(let sql) = row[2] { triggers[name] = (table, sql) }
        }
        return triggers
    }
}
