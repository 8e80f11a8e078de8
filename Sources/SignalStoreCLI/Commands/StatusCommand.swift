import ArgumentParser
import Foundation
import SignalStore

/// `signalstore status`: the database's version, pending migrations, feed position, tables and
/// dangling references.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the schema version, pending migrations, change-feed position and tables.",
        discussion: """
            Reads only; the database is not changed. "pending" runs the same checks as \
            `migrate` against the --migrations folder: it lists what `migrate` would apply, or \
            says why `migrate` would fail (an edited migration, a gap, a database newer than \
            the files). "dangling" lists rows whose foreign key names a row that does not \
            exist (`PRAGMA foreign_key_check`), left by a writer with foreign keys off.

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
        let plan = migrationPlan(store)
        let lastSeq = try CLIFailure.run { try store.lastChangeSeq }
        let journal = try CLIFailure.run { try store.journalSummary() }
        let tables = try SchemaReader.tableNames(store).map { ($0, try rowCount(of: $0, in: store)) }
        let dangling = try CLIFailure.run { try store.readConnection(DanglingReference.all) }
        let path = store.path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0

        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("database", .string(path)), ("bytes", .integer(size)), ("version", .integer(version)),
                ("pending", plan.files.map { .array($0.map { .string($0) }) } ?? .null),
                ("migrateWouldFail", plan.failure.map(JSONValue.string) ?? .null),
                ("lastSeq", .integer(lastSeq)), ("journalEntries", .integer(journal.entries)),
                ("prunedThrough", .integer(journal.prunedThrough)),
                ("tables", .array(tables.map { .object([("name", .string($0.0)), ("rows", .integer($0.1))]) })),
                ("dangling", .array(dangling.map { reference in .object([
                    ("table", .string(reference.child)), ("columns", .array(reference.columns.map(JSONValue.string))),
                    ("parent", .string(reference.parent)), ("rows", .integer(Int64(reference.count))),
                    ("rowids", .array(reference.sampleRowIDs.map(JSONValue.integer))),
                ]) })),
            ]))
            return
        }
        let versionName = applied.last.map { "\(version) (\($0.name))" } ?? "0 (no migrations applied)"
        printer.fields([
            ("database", "\(path) (\(size) bytes)"),
            ("version", versionName),
            ("pending", plan.description),
            ("last seq", "\(lastSeq)"),
            ("journal", "\(journal.entries) entries, pruned through seq \(journal.prunedThrough)"),
            ("tables", tables.map { "\($0.0) (\($0.1) \($0.1 == 1 ? "row" : "rows"))" }.joined(separator: ", ")),
            ("dangling", danglingDescription(dangling)),
        ])
    }

    /// The rows whose foreign key names a missing row, and what to do about them.
    private func danglingDescription(_ references: [DanglingReference]) -> String {
        guard !references.isEmpty else { return "none" }
        return references.map(\.description).joined(separator: "; ")
            + " — point them at existing rows or delete them (signalstore set / delete)"
    }

    /// What `migrate` would do with the --migrations folder: the files it would apply, or why
    /// it would fail. The same checks as `migrate`, run without changing anything.
    private func migrationPlan(_ store: Store) -> MigrationPlan {
        do {
            let migrations = try Migration.load(from: options.migrationFiles.migrationsDirectory)
            let pending = try store.readConnection { connection in try Migrator.pending(migrations, in: connection) }
            return .pending(pending.map { $0.file ?? $0.name })
        } catch let error as MigrationError {
            return .wouldFail(error.description)
        } catch {
            return .wouldFail(CLIFailure.convert(error).description)
        }
    }
}

/// The pending migrations, or why `migrate` would fail.
private enum MigrationPlan {
    case pending([String])
    case wouldFail(String)

    var files: [String]? {
        if case .pending(let files) = self { return files }
        return nil
    }

    var failure: String? {
        if case .wouldFail(let reason) = self { return reason }
        return nil
    }

    var description: String {
        switch self {
        case .pending(let files): return files.isEmpty ? "none" : files.joined(separator: ", ")
        case .wouldFail(let reason): return "migrate would fail: \(reason)"
        }
    }
}

/// The number of rows in `table` (a name read from the schema).
func rowCount(of table: String, in store: Store) throws(CLIError) -> Int64 {
    try CLIFailure.run {
        try store.readConnection { connection in
            try connection.scalar("SELECT count(*) FROM \(identifier: table)")?.integerValue ?? 0
        }
    }
}
