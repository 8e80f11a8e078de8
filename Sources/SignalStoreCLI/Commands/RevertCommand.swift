import ArgumentParser
import SignalStore

/// `signalstore revert SEQ[...SEQ]`: undoes change-feed entries as one new transaction.
struct RevertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Undo change-feed entries, newest first, in one transaction; print what it wrote.",
        discussion: """
            An update gets its old value back, an insert is deleted, a delete is inserted again \
            with its whole row. The revert is an ordinary write: running apps, watchers and sync \
            see it, and reverting its own entries is a redo. If a later entry changed one of the \
            rows or columns again, nothing is written and the later entries are named; \
            --overwrite-later-changes overwrites them. A range split by a migration is refused \
            (schema changes are not in the change feed).

            Examples:
              signalstore revert 12 --dry-run --db app.sqlite
              signalstore revert 12...15 --db app.sqlite
            """
    )

    @Argument(help: ArgumentHelp("The entry to undo, or a range of them.", valueName: "seq[...seq]"))
    var seqs: String

    @Flag(name: .long, help: "Print what the revert would write, and write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Undo even where a later entry changed the same row or column again.")
    var overwriteLaterChanges = false

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption

    func validate() throws {
        _ = try Self.parseRange(seqs)
    }

    func run() throws {
        let range = try Self.parseRange(seqs)
        let store = try DatabaseOpener.open(options, access: .readWrite, busyTimeout: lockTimeout.busyTimeout)
        defer { store.close() }
        let written = try CLIFailure.run {
            dryRun
                ? try store.revertPreview(range, overwritingLaterChanges: overwriteLaterChanges)
                : try store.revert(range, overwritingLaterChanges: overwriteLaterChanges)
        }
        let columnOrders = try SchemaReader.columnOrders(store)
        if !options.json {
            Printer(json: false).line(dryRun
                ? "dry run: reverting seq \(range.lowerBound)...\(range.upperBound) would write \(written.count) \(written.count == 1 ? "entry" : "entries"); nothing was written"
                : "reverted seq \(range.lowerBound)...\(range.upperBound): wrote \(written.count) \(written.count == 1 ? "entry" : "entries")")
        }
        ChangeList(columnOrders: columnOrders, json: options.json).print(written, empty: "(nothing to write)")
    }

    /// `12` or `12...15`.
    static func parseRange(_ text: String) throws(ValidationError) -> ClosedRange<Int64> {
        let parts = text.split(separator: "...", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), let lower = Int64(parts[0]), let upper = Int64(parts.last ?? ""), lower >= 1, lower <= upper else {
            throw ValidationError("\(display(text)) is not a seq or a range of seqs: give one like 12 or 12...15 (the seqs `signalstore changes` and `history` print)")
        }
        return lower...upper
    }
}
