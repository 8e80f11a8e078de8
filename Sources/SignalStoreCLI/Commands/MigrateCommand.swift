import ArgumentParser
import Foundation
import SignalStore

/// `signalstore migrate`: creates the database if needed and applies pending migrations.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create the database if needed and apply pending migrations.",
        discussion: """
            Applies the NNNN_description.sql files in --migrations (default ./Migrations) that the \
            database does not have yet, each in its own transaction. A failing migration is rolled \
            back completely and the error names its file and line.

            Example:
              signalstore migrate --db app.sqlite --migrations Migrations
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption
    @OptionGroup var progressOption: QuietOption

    func run() throws {
        let path = try options.databasePath()
        let existed = FileManager.default.fileExists(atPath: path)
        let before = existed ? try appliedVersions(path) : []
        let progress = ProgressLine("migrate", total: nil, quiet: progressOption.quiet)
        if let progress, let pending = try? pendingFiles(path, existed: existed), !pending.isEmpty {
            progress.show("applying \(pending.joined(separator: ", "))…")
        }
        let store: Store
        do {
            defer { progress?.finish() }
            store = try DatabaseOpener.openMigrating(options, busyTimeout: lockTimeout.busyTimeout)
        } catch {
            if !existed { removeCreatedDatabase(path) }
            throw error
        }
        defer { store.close() }
        let applied = try store.readForCLI(AppliedMigration.all)
        let new = applied.filter { !before.contains($0.version) }
        let version = applied.last?.version ?? 0
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("database", .string(path)), ("version", .integer(version)),
                ("applied", .array(new.map { .object([("version", .integer($0.version)), ("name", .string($0.name))]) })),
            ]))
            return
        }
        for row in new {
            printer.line("applied migration \(row.version): \(row.name)")
        }
        printer.line(new.isEmpty ? "\(path) is up to date at version \(version)" : "\(path) is now at version \(version)")
    }

    /// The files `migrate` is about to apply (for the progress line), read without changing
    /// anything.
    private func pendingFiles(_ path: String, existed: Bool) throws -> [String] {
        let migrations = try DatabaseOpener.loadMigrations(options.migrationFiles)
        guard existed else { return migrations.map { $0.file ?? $0.name } }
        let connection = try Connection(path: path, busyTimeout: lockTimeout.busyTimeout, readOnly: true)
        return try Migrator.pending(migrations, in: connection).map { $0.file ?? $0.name }
    }

    /// The versions already applied, read without changing the file.
    private func appliedVersions(_ path: String) throws -> Set<Int64> {
        try DatabaseFile.checkExisting(path)
        return try CLIFailure.run {
            let connection = try Connection(path: path, busyTimeout: lockTimeout.busyTimeout, readOnly: true)
            return Set(try AppliedMigration.all(connection).map(\.version))
        }
    }

    /// A failed first migration leaves no new file behind.
    private func removeCreatedDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
