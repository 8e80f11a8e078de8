import Foundation

/// Applies migrations in order, each in its own `BEGIN IMMEDIATE … COMMIT` together with its
/// row in `_signalstore_migrations` (version, name, checksum, applied_at, after_seq).
///
/// Inside a migration's transaction the capture triggers are dropped first (a trigger that
/// names a column would make `DROP COLUMN` fail, and a rebuilt table must not journal its copy)
/// and regenerated last, so a crash leaves either the old schema with its capture or the new
/// one with its own. The caller turns foreign-key enforcement off around ``migrate(_:)`` (SQLite
/// ignores that pragma inside a transaction), so a table rebuild does not fire `ON DELETE`
/// actions; `PRAGMA foreign_key_check` runs before each commit instead.
package struct Migrator {
    static let table = "_signalstore_migrations"

    let migrations: [Migration]

    /// Checks the migrations against each other and the database, then applies the pending ones.
    func migrate(_ schema: SchemaCache, _ connection: Connection) throws {
        try validateSequence()
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(Self.table) (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at REAL NOT NULL,
                after_seq INTEGER
            )
            """)
        try addAfterSeqColumn(connection)
        let applied = try appliedMigrations(connection)
        try validate(applied: applied)
        for migration in migrations where applied[migration.version] == nil {
            try apply(migration, schema, to: connection)
        }
    }

    /// What ``migrate(_:)`` would do, without changing anything: the migrations it would apply.
    /// - Throws: The ``MigrationError`` it would fail with (a gap, a duplicate, an edited
    ///   applied migration, a database newer than the migrations).
    package static func pending(_ migrations: [Migration], in connection: Connection) throws -> [Migration] {
        let migrator = Migrator(migrations: migrations)
        try migrator.validateSequence()
        let hasTable = try connection.tableExists(table)
        let applied = hasTable ? try migrator.appliedMigrations(connection) : [:]
        try migrator.validate(applied: applied)
        return migrations.filter { applied[$0.version] == nil }
    }

    /// No duplicates, no gaps, starting at 1.
    private func validateSequence() throws(MigrationError) {
        var previous: Migration?
        for migration in migrations {
            if let previous, previous.version == migration.version {
                throw MigrationError(.duplicateVersion, file: migration.label, message: "\(migration.label) and \(previous.label) both have version \(migration.version); give each migration its own number")
            }
            let expected = (previous?.version ?? 0) + 1
            if migration.version != expected {
                throw MigrationError(.gap, file: migration.label, message: "\(migration.label) has version \(migration.version) but version \(expected) is missing; migrations must be numbered 1, 2, 3, … without gaps")
            }
            previous = migration
        }
    }

    private func appliedMigrations(_ connection: Connection) throws -> [Int: (name: String, checksum: String)] {
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in try connection.statement("SELECT version, name, checksum FROM \(Self.table)").rows() {
            guard case .integer(let version) = row[0], case .text(let name) = row[1], case .text(let checksum) = row[2] else { continue }
            applied[Int(version)] = (name, checksum)
        }
        return applied
    }

    /// Applied migrations must still exist unchanged.
    private func validate(applied: [Int: (name: String, checksum: String)]) throws(MigrationError) {
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        let latestFile = migrations.last?.version ?? 0
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = byVersion[version] else {
                throw MigrationError(.databaseNewer, file: nil, message: "the database has migration \(version) (\(record.name)) applied, but the migrations go only up to \(latestFile); use the migrations this database was made with, or a newer build")
            }
            if migration.checksum != record.checksum {
                throw MigrationError(.checksumMismatch, file: migration.label, message: "\(migration.label) was changed after it was applied to this database; restore its original text and put the change in a new migration")
            }
        }
    }

    /// Databases made before `after_seq` existed get the column (NULL for their migrations).
    private func addAfterSeqColumn(_ connection: Connection) throws {
        if try TableSchema.read(Self.table, connection)?.column(named: "after_seq") == nil {
            try connection.execute("ALTER TABLE \(Self.table) ADD COLUMN after_seq INTEGER")
        }
    }

    private func apply(_ migration: Migration, _ schema: SchemaCache, to connection: Connection) throws {
        try connection.transaction {
            try Journal.removeCapture(connection)
            try run(migration, connection)
            try checkForeignKeys(after: migration, connection)
            try Journal.installCapture(schema, connection, snapshotNewTables: false)
            try connection.statement("INSERT INTO \(Self.table) (version, name, checksum, applied_at, after_seq) VALUES (?, ?, ?, ?, ?)").run([
                .integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum),
                .real(Date().timeIntervalSince1970), .integer(try Journal.highestSeq(connection)),
            ])
        }
    }

    private func run(_ migration: Migration, _ connection: Connection) throws {
        for statement in try SQLScript(migration.sql).statements() {
            do throws(SQLiteError) {
                try Statement(database: connection.handle, sql: statement.sql).run()
            } catch {
                throw MigrationError(.statementFailed, file: migration.label, line: statement.line, message: "\(error.message) — the migration was rolled back; fix the statement and run again")
            }
        }
    }

    /// Fails, naming table and row, if the migration left a row that refers to a missing one.
    private func checkForeignKeys(after migration: Migration, _ connection: Connection) throws {
        guard let violation = try connection.statement("PRAGMA foreign_key_check").rows().first else { return }
        let table = if case .text(let name) = violation[0] { name } else { "?" }
        let row = if case .integer(let rowID) = violation[1] { "row \(rowID)" } else { "a row" }
        let parent = if case .text(let name) = violation[2] { name } else { "?" }
        throw MigrationError(.foreignKeyViolation, file: migration.label, message: "\(migration.label) leaves \(row) of \(table) referring to a row of \(parent) that does not exist — the migration was rolled back; make it keep, update or delete the referring rows, and run again")
    }
}
