/// Installs and repairs the capture triggers of every user table.
///
/// Captured: every table of the main schema except SQLite's own (`sqlite_*`), the store's own
/// (`_signalstore_*`), virtual tables and `WITHOUT ROWID` tables. Triggers are persistent,
/// part of the schema, so changes by *any* writer (another process, the `sqlite3` shell) are
/// journaled in the same transaction as the change.
enum ChangeCapture {
    /// Creates missing triggers, replaces stale ones (the table's columns changed) and drops
    /// those of dropped columns. When capture starts on a table that already has rows, the rows
    /// are journaled as inserts, so replaying the feed from the start rebuilds the table.
    static func installOrRepair(_ connection: Connection) throws {
        try connection.transaction {
            let existing = try existingTriggers(connection)
            var wanted: Set<String> = []
            for generator in try capturedTables(connection) {
                let isNewCapture = !existing.keys.contains { $0.hasPrefix(TriggerGenerator.prefix + generator.table + ":") }
                for trigger in generator.triggers {
                    wanted.insert(trigger.name)
                    guard existing[trigger.name] != trigger.sql else { continue }
                    if existing[trigger.name] != nil { try connection.execute("DROP TRIGGER \(identifier(trigger.name))") }
                    try connection.execute(trigger.sql)
                }
                if isNewCapture { try connection.execute(generator.snapshotSQL) }
            }
            for name in existing.keys where !wanted.contains(name) {
                try connection.execute("DROP TRIGGER IF EXISTS \(identifier(name))")
            }
        }
    }

    /// The store's triggers now in the schema: name → SQL.
    private static func existingTriggers(_ connection: Connection) throws -> [String: String] {
        let rows = try connection.statement(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?"
        ).rows([.integer(Int64(TriggerGenerator.prefix.utf8.count)), .text(TriggerGenerator.prefix)])
        var triggers: [String: String] = [:]
        for row in rows {
            if case .text(let name) = row[0], case .text(let sql) = row[1] { triggers[name] = sql }
        }
        return triggers
    }

    /// A generator for every captured table.
    static func capturedTables(_ connection: Connection) throws -> [TriggerGenerator] {
        let tables = try connection.statement(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND wr = 0 ORDER BY name"
        ).rows()
        return try tables.compactMap { row -> TriggerGenerator? in
            guard case .text(let table) = row[0], !table.hasPrefix("sqlite_"), !table.hasPrefix("_signalstore_") else { return nil }
            return try generator(for: table, connection)
        }
    }

    private static func generator(for table: String, _ connection: Connection) throws -> TriggerGenerator {
        let columns = try connection.statement("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid").rows([.text(table)])
        var names: [String] = []
        var keyColumns: [(name: String, type: String)] = []
        for column in columns {
            guard case .text(let name) = column[0] else { continue }
            names.append(name)
            if case .integer(let pk) = column[2], pk > 0, case .text(let type) = column[1] { keyColumns.append((name, type)) }
        }
        let alias = keyColumns.count == 1 && keyColumns[0].type.uppercased() == "INTEGER" ? keyColumns[0].name : nil
        return TriggerGenerator(table: table, columns: names, rowIDAlias: alias)
    }
}
