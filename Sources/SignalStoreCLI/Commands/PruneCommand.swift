import ArgumentParser
import SignalStore

/// `signalstore prune --through SEQ`: deletes old change-feed entries.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete change-feed entries up to and including a seq.",
        discussion: """
            Readers that later resume from before SEQ get a clear "entries were pruned" error \
            instead of a silent gap.

            Example:
              signalstore prune --through 1200 --db app.sqlite
            """
    )

    @Option(name: .long, parsing: .unconditional, help: "The last seq to delete.")
    var through: Int64

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption
    @OptionGroup var progressOption: QuietOption

    func validate() throws {
        if through < 0 { throw ValidationError("--through must be a seq of 0 or more, e.g. --through 100") }
    }

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readWrite, busyTimeout: lockTimeout.busyTimeout)
        defer { store.close() }
        let lastSeq = try CLIFailure.run { try store.lastChangeSeq }
        if through > lastSeq {
            throw CLIError("cannot prune through seq \(through): the last entry is seq \(lastSeq); give a seq up to \(lastSeq)")
        }
        let progress = ProgressLine("pruning the change feed", total: nil, quiet: progressOption.quiet)
        let pruned = try CLIFailure.run { try store.pruneChanges(through: through) { progress?.update(Int64($0)) } }
        progress?.finish()
        let after = try CLIFailure.run { try store.journalSummary() }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("pruned", .integer(Int64(pruned))), ("prunedThrough", .integer(after.prunedThrough)),
                ("remaining", .integer(after.entries)),
            ]))
        } else {
            printer.line("pruned \(pruned) entries through seq \(after.prunedThrough); \(after.entries) remain")
        }
    }
}
