import ArgumentParser
import SignalStore

/// `signalstore watch TABLE [ID] [COLUMN…]`: the current values, then every change as it commits.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print current values, then each change from any process as it commits, until Ctrl-C.",
        discussion: """
            Without --since, first prints the current rows (or row, or columns), then streams the \
            changes committed after that snapshot, by this or any other process. With --since SEQ, \
            first replays the feed after SEQ instead. Ctrl-C ends it with exit status 0. Each change \
            line is: #SEQ TABLE ROWID OPERATION DETAIL. With --json, one object per line. \
            --column C (repeatable) follows columns across every row. A watch with nothing to \
            print yet says so on stderr, and waits.

            Examples:
              signalstore watch orders 1 purchase_num status --db app.sqlite
              signalstore watch orders --column status --db app.sqlite
              signalstore watch orders --since 0 --json --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key (default: every row).")
    var id: String?

    @Argument(help: "Only these columns of the row (default: every column).", completion: Completions.columns)
    var columns: [String] = []

    @Option(name: .customLong("column"), help: ArgumentHelp("Only this column, of every row or of the row (repeatable).", valueName: "column"), completion: Completions.columns)
    var columnOptions: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Replay the change feed after this seq instead of printing current values.")
    var since: Int64?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since must be a seq of 0 or more, e.g. --since 0") }
    }

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        if schema.isWithoutRowID {
            throw CLIError("table \(schema.name) is WITHOUT ROWID, so its changes are not captured; watch a table with a rowid")
        }
        let selected = try (columns + columnOptions).map { try schema.column($0).name }
        let access = RowAccess(table: schema)
        let key = try id.map { try schema.parseID($0) }
        let rowID = try key.map { key in
            guard let rowID = try store.readForCLI({ try access.rowID(of: key, $0) }) else {
                throw access.noRow(key)
            }
            return rowID
        }
        let printer = Printer(json: options.json)
        var start = since ?? 0
        if since == nil {
            let snapshot = try currentRows(store, access, key: key)
            start = snapshot.seq
            for row in snapshot.rows { printCurrent(row, schema: schema, columns: selected, printer: printer) }
            if snapshot.rows.isEmpty {
                CommandContext.current.console.printError("note: \(schema.name) has no rows yet; waiting for changes (Ctrl-C to stop)")
            }
        }
        if let since, let last = try? store.lastChangeSeq, since >= last {
            CommandContext.current.console.printError("note: the feed ends at seq \(last), nothing after \(since) yet; waiting for changes (Ctrl-C to stop)")
        }
        let tableName = schema.name, json = options.json
        let columnOrder = schema.columns.map(\.name)
        try FeedFollower(
            store: store, since: start, limit: nil,
            include: { change in
                change.table == tableName && (rowID == nil || change.rowID == rowID)
                    && (selected.isEmpty || change.operation != .update || selected.contains(change.column ?? ""))
            },
            handle: { change in
                printer.line(json ? ChangeFormat.json(change, columnOrder: columnOrder).rendered : ChangeFormat.human(change, columnOrder: columnOrder))
            }
        ).run()
    }

    /// The watched rows and the feed position they reflect, read in one snapshot.
    private func currentRows(_ store: Store, _ access: RowAccess, key: SQLiteValue?) throws(CLIError) -> (rows: [[(String, SQLiteValue)]], seq: Int64) {
        try store.readForCLI { connection in
            let rows = try key.map { try access.row($0, connection).map { [$0] } ?? [] } ?? access.rows(limit: nil, connection)
            return (rows, try Journal.highestSeq(connection))
        }
    }

    private func printCurrent(_ row: [(String, SQLiteValue)], schema: TableSchema, columns: [String], printer: Printer) {
        let keyName = schema.keyColumn?.name
        let keyValue = row.first { $0.0 == keyName }?.1 ?? row.first?.1 ?? .null
        let shown = columns.isEmpty ? row : columns.compactMap { column in row.first { $0.0 == column } }
        if options.json {
            printer.line(JSONValue.object([
                ("type", .string("current")), ("table", .string(schema.name)), ("id", JSONValue(keyValue)),
                ("values", JSONValue(row: shown)),
            ]).rendered)
        } else {
            printer.line("now  \(schema.name)  \(ValueFormat.human(keyValue))  \(ChangeFormat.rowText(shown))")
        }
    }
}
