import ArgumentParser
import SignalStore

/// `signalstore get TABLE [ID [COLUMN]]`: rows, one row, or one value.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a table's rows, one row, or one value.",
        discussion: """
            ID is the row's primary key (its rowid when the key has several columns). With COLUMN, \
            prints just the value, for scripts: text exactly as stored, and NULL as an empty line \
            (as sqlite3 does); with --json, NULL is null and empty text "". Without COLUMN, text \
            that could be mistaken for something else is shown quoted as you would type it: \
            '' (empty), 'null' (the text), null (NULL).

            Examples:
              signalstore get orders --db app.sqlite
              signalstore get orders 1 --db app.sqlite
              signalstore get orders 1 purchase_num --db app.sqlite
              signalstore get orders 1 purchase_num status --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key.")
    var id: String?

    @Argument(help: "Columns of the row (one: its raw value, for scripts).", completion: Completions.columns)
    var columns: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Print at most this many rows.")
    var limit: Int?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, e.g. --limit 20") }
    }

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let access = RowAccess(table: schema)
        let printer = Printer(json: options.json)
        guard let id else {
            try printAll(access, from: store, printer)
            return
        }
        let key = try schema.parseID(id)
        let selected = try columns.map { try schema.column($0).name }
        guard var row = try store.readForCLI({ try access.row(key, $0) }) else { throw access.noRow(key) }
        if selected.count == 1 {
            let value = row.first { $0.0 == selected[0] }?.1 ?? .null
            printer.line(options.json ? JSONValue(value).rendered : ValueFormat.raw(value))
            return
        }
        if !selected.isEmpty {
            let values = Dictionary(row, uniquingKeysWith: { first, _ in first })
            row = selected.map { ($0, values[$0] ?? .null) }
        }
        if options.json {
            printer.document(JSONValue(row: row))
        } else {
            printer.table(row.reduce(into: TextTable("COLUMN", "VALUE")) { $0.append([$1.0, ValueFormat.human($1.1)]) })
        }
    }

    /// Streams the rows a page at a time: the first line at once, memory flat in the table's
    /// size, Ctrl-C noticed between pages (exit 130).
    private func printAll(_ access: RowAccess, from store: Store, _ printer: Printer) throws {
        let stop = CommandContext.current.stop
        let remaining = limit ?? Int.max
        var printed = 0, key: SQLiteValue? = nil, widths: [Int]?, separator = ""
        if options.json { printer.line("[") }
        while printed < remaining {
            if stop.isFired { throw CommandInterrupted() }
            // A small first page prints the header and first rows at once (and sets the widths).
            let size = min(printed == 0 ? 100 : JournalPages.pageSize, remaining - printed)
            let page = try store.readForCLI { [key, printed] in try access.page(after: key, offset: printed, limit: size, $0) }
            if options.json {
                for row in page.rows {
                    printer.line(separator + JSONValue(row: row).rendered)
                    separator = ","
                }
            } else {
                var table = TextTable(headers: access.table.columns.map(\.name))
                page.rows.forEach { row in table.append(row.map { ValueFormat.human($0.1) }) }
                if widths == nil { widths = table.widths; printer.line(table.lines[0]) }
                table.rowLines(widths: widths!).forEach(printer.line)
            }
            printed += page.rows.count
            key = page.lastKey
            if page.rows.count < size { break }
        }
        if options.json { printer.line("]") } else if printed == 0 { printer.line("(no rows)") }
    }
}
