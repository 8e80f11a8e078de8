import ArgumentParser
import SignalStore

/// `signalstore changes`: the change feed, optionally followed live.
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print change-feed entries after a seq; with --follow, keep printing new ones.",
        discussion: """
            Entries are printed in seq order, without gap or duplicate. Without --since, printing \
            starts at the oldest entry still kept (a note on stderr says when older ones were \
            pruned); if entries after an explicit --since were pruned, the command fails rather \
            than skip them. With --follow, new entries from \
            any process are printed as they commit, until Ctrl-C or --limit entries.

            Examples:
              signalstore changes --since 100 --limit 20 --db app.sqlite
              signalstore changes --follow --json --db app.sqlite
            """
    )

    @Option(name: .long, parsing: .unconditional, help: "Print entries after this seq (default: from the oldest entry kept).")
    var since: Int64?

    @Option(name: .long, parsing: .unconditional, help: "Print at most this many entries.")
    var limit: Int?

    @Flag(name: .long, help: "Keep printing new entries as they commit, until Ctrl-C.")
    var follow = false

    @OptionGroup var options: GlobalOptions
    @OptionGroup var progressOption: QuietOption

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since must be a seq of 0 or more, e.g. --since 0") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, e.g. --limit 20") }
    }

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let columnOrders = try SchemaReader.columnOrders(store)
        let since = try startSeq(store)
        let printer = Printer(json: options.json)
        let json = options.json
        let format: @Sendable (Change) -> String = { change in
            let order = columnOrders[change.table] ?? []
            return json ? ChangeFormat.json(change, columnOrder: order).rendered : ChangeFormat.human(change, columnOrder: order)
        }
        if follow {
            try FeedFollower(store: store, since: since, limit: limit, include: { _ in true }) { printer.line(format($0)) }.run()
            return
        }
        // One document with --json, streamed: `[`, one entry per line, `]`.
        if json { printer.line("[") }
        var separator = ""
        let remaining = try CLIFailure.run { try store.lastChangeSeq } - since
        let progress = ProgressLine("exporting the change feed", total: min(remaining, Int64(limit ?? Int.max)), quiet: progressOption.quiet, whileOutputStreams: true)
        let outcome = try JournalPages.forEach(in: store, after: since, limit: limit, progress: progress) { change in
            printer.line(separator + format(change))
            if json { separator = "," }
        }
        if json { printer.line("]") }
        if outcome.interrupted { throw CommandInterrupted() }
        if outcome.count == 0, !json { printer.line("(no entries after seq \(since))") }
    }

    /// `--since`, or else the prune horizon: the oldest entry kept comes first.
    private func startSeq(_ store: Store) throws -> Int64 {
        if let since { return since }
        let pruned = try CLIFailure.run { try store.journalSummary().prunedThrough }
        if pruned > 0 {
            CommandContext.current.console.printError("note: entries up to seq \(pruned) were pruned; starting after them")
        }
        return pruned
    }
}
