import ArgumentParser
import Foundation

/// The context options every command takes (DESIGN §4): the database, the migrations folder,
/// and JSON output. A command that does not use one ignores it, so a script or an alias can
/// always pass all three.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file (default: $SIGNALSTORE_DB).", valueName: "path"), completion: .file())
    var db: String?

    @Flag(name: .long, help: "Print JSON: one document, or one JSON object per line for streams.")
    var json = false

    @OptionGroup var migrationFiles: MigrationsOption

    /// The database path from `--db` or `SIGNALSTORE_DB`.
    /// - Throws: A usage error when neither is given.
    func databasePath() throws -> String {
        if let db, !db.isEmpty { return db }
        if let path = CommandContext.current.environment["SIGNALSTORE_DB"], !path.isEmpty { return path }
        throw ValidationError("no database given: pass --db PATH or set SIGNALSTORE_DB (create one with `signalstore migrate --db PATH`)")
    }
}

/// `--timeout`, for the commands that write (a reader never waits for a writer's lock).
struct TimeoutOption: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds to wait for another writer's lock before failing.", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        guard timeout.isFinite, timeout >= 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a number of seconds between 0 and 86400, e.g. --timeout 2.5")
        }
    }

    /// The lock timeout as a `Duration`.
    var busyTimeout: Duration {
        .milliseconds(Int64(timeout * 1_000))
    }
}

/// `--migrations`, a context option: read by `migrate`, `status` and `demo`, accepted and
/// ignored by the others.
struct MigrationsOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder of NNNN_description.sql migrations (read by migrate, status and demo).", valueName: "dir"), completion: .directory)
    var migrations: String = "Migrations"

    /// The migrations folder as a URL.
    var migrationsDirectory: URL {
        URL(fileURLWithPath: migrations, isDirectory: true)
    }
}

/// `--quiet`, for the commands that show progress.
struct QuietOption: ParsableArguments {
    @Flag(name: .long, help: "Show no progress on the terminal during long work.")
    var quiet = false
}

extension Duration {
    /// How long a command that does not take `--timeout` waits for a lock.
    static let defaultBusyTimeout = Duration.seconds(5)
}
