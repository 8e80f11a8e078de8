import ArgumentParser
import Foundation
import SignalStore

/// `signalstore status`: the database's version, pending migrations, feed position and tables.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the schema version, pending migrations, change-feed position and tables.",
        discussion: """
            Reads only; the database is not changed.

            Example:
              signalstore status --db app.sqlite
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let applied = try store.readForCLI(AppliedMigration.all)
        let version = applied.last?.version ?? 0
        let pending = pendingMigrations(after: version)
        let lastSeq = try CLIFailure.run { try store.lastChangeSeq }
        let journal = try CLIFailure.run { try store.journalSummary() }
        let tables = try SchemaReader.tableNames(store).map { ($0, try rowCount(of: $0, in: store)) }
        let path = store.path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0

        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("database", .string(path)), ("bytes", .integer(size)), ("version", .integer(version)),
                ("pending", pending.map { .array($0.map { .string($0) }) } ?? .null),
                ("lastSeq", .integer(lastSeq)), ("journalEntries", .integer(journal.entries)),
                ("prunedThrough", .integer(journal.prunedThrough)),
                ("tables", .array(tables.map { .object([("name", .string($0.0)), ("rows", .integer($0.1))]) })),
            ]))
            return
        }
        let versionName = applied.last.map { "\(version) (\($0.name))" } ?? "0 (no migrations applied)"
        printer.fields([
            ("database", "\(path) (\(size) bytes)"),
            ("version", versionName),
            ("pending", pending.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "unknown (no readable migrations in \(options.migrations))"),
            ("last seq", "\(lastSeq)"),
            ("journal", "\(journal.entries) entries, pruned through seq \(journal.prunedThrough)"),
            ("tables", tables.map { "\($0.0) (\($0.1) \($0.1 == 1 ? "row" : "rows"))" }.joined(separator: ", ")),
        ])
    }

    /// The migration files newer than `version`, or `nil` when the folder cannot be read.
    private func pendingMigrations(after version: Int64) -> [String]? {
        guard let migrations = try? Migration.load(from: options.migrationsDirectory) else { return nil }
        return migrations.filter { $0.version > version }.map { $0.file ?? $0.name }
    }
}

/// The number of rows in `table` (a name read from the schema).
func rowCount(of table: String, in store: Store) throws(CLIError) -> Int64 {
    try CLIFailure.run {
        try store.readConnection { connection in
            try connection.statement("SELECT count(*) FROM \(quotedIdentifier(table))").rows().first?.first?.integerValue ?? 0
        }
    }
}
