import Foundation
import SignalStore

/// Opens the database a command works on, after checks that keep bad input from changing it.
enum DatabaseOpener {
    /// Opens the existing SignalStore database named by `options`.
    ///
    /// The file is checked first (exists, not empty, a whole SQLite database, writable when
    /// `access` is `.readWrite`), then probed read-only for the store's journal, so a file that
    /// is not a SignalStore database is never written.
    static func open(_ options: GlobalOptions, access: Store.Access, busyTimeout: Duration = .defaultBusyTimeout) throws -> Store {
        let path = try options.databasePath()
        try DatabaseFile.checkExisting(path)
        if access == .readWrite, !DatabaseFile.isWritable(path) {
            throw CLIError("\(display(path)) is read-only; make it writable (chmod u+w) to change it, or use a read-only command such as get, watch or changes")
        }
        try probe(path)
        return try CLIFailure.run {
            try Store(existing: path, access: access, busyTimeout: busyTimeout)
        }
    }

    /// Opens (creating if needed) the database named by `options` and applies the migrations.
    static func openMigrating(_ options: GlobalOptions, busyTimeout: Duration) throws -> Store {
        let path = try options.databasePath()
        let migrations = try loadMigrations(options.migrationFiles)
        if FileManager.default.fileExists(atPath: path) {
            try DatabaseFile.checkExisting(path)
            if !DatabaseFile.isWritable(path) {
                throw CLIError("\(display(path)) is read-only; make it writable (chmod u+w) to migrate it")
            }
        }
        return try CLIFailure.run {
            try Store(path: path, migrations: migrations, busyTimeout: busyTimeout)
        }
    }

    /// The migrations in `--migrations`.
    static func loadMigrations(_ folder: MigrationsOption) throws -> [Migration] {
        try CLIFailure.run {
            try Migration.load(from: folder.migrationsDirectory)
        }
    }

    /// Fails unless the file, opened read-only, has SignalStore's journal.
    private static func probe(_ path: String) throws {
        let hasJournal = try CLIFailure.run {
            let connection = try Connection(path: path, busyTimeout: .defaultBusyTimeout, readOnly: true)
            return try Store.isSignalStoreDatabase(connection)
        }
        guard hasJournal else {
            throw CLIError("\(display(path)) is a SQLite database but not a SignalStore one (it has no change journal); run `signalstore migrate --db \(display(path))` to adopt it")
        }
    }
}
