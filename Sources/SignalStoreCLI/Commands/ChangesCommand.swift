import ArgumentParser
import SignalStore

/// `signalstore changes`: the change feed, optionally followed live.
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print change-feed entries after a seq; with --follow, keep printing new ones.",
        discussion: """
            Entries are printed in seq order, without gap or duplicate. If entries after --since \
            were pruned, the command fails rather than skip them. With --follow, new entries from \
            any process are printed as they commit, until Ctrl-C or --limit entries.

            Examples:
              signalstore changes --since 100 --limit 20 --db app.sqlite
              signalstore changes --follow --json --db app.sqlite
            """
    )

    @Option(name: .long, help: "Print entries after this seq (default 0: from the start).")
    var since: Int64 = 0

    @Option(name: .long, help: "Print at most this many entries.")
    var limit: Int?

    @Flag(name: .long, help: "Keep printing new entries as they commit, until Ctrl-C.")
    var follow = false

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if since < 0 { throw ValidationError("--since must be a seq of 0 or more, e.g. --since 0") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, e.g. --limit 20") }
    }

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let columnOrders = try SchemaReader.tableNames(store).reduce(into: [String: [String]]()) { orders, name in
            orders[name] = try SchemaReader.table(name, in: store).columns.map(\.name)
        }
        let printer = Printer(json: options.json)
        let json = options.json
        if follow {
            try FeedFollower(store: store, since: since, limit: limit, include: { _ in true }) { change in
                let order = columnOrders[change.table] ?? []
                printer.line(json ? ChangeFormat.json(change, columnOrder: order).rendered : ChangeFormat.human(change, columnOrder: order))
            }.run()
            return
        }
        let entries = try CLIFailure.run { try store.journalEntries(after: since, limit: limit) }
        if json {
            printer.document(.array(entries.map { ChangeFormat.json($0, columnOrder: columnOrders[$0.table] ?? []) }))
            return
        }
        var output = TextTable("SEQ", "TABLE", "ID", "OPERATION", "CHANGE")
        for change in entries {
            output.append(["\(change.seq)", change.table, "\(change.rowID)", change.operation.rawValue, ChangeFormat.detail(change, columnOrder: columnOrders[change.table] ?? [])])
        }
        printer.table(output)
        if entries.isEmpty { printer.line("(no entries after seq \(since))") }
    }
}
