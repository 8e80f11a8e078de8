import ArgumentParser
import SignalStore

/// `signalstore get TABLE [ID [COLUMN]]`: rows, one row, or one value.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a table's rows, one row, or one value.",
        discussion: """
            ID is the row's primary key (its rowid when the key has several columns). With COLUMN, \
            prints just the value, for scripts.

            Examples:
              signalstore get orders --db app.sqlite
              signalstore get orders 1 --db app.sqlite
              signalstore get orders 1 purchase_num --db app.sqlite
            """
    )

    @Argument(help: "The table.")
    var table: String

    @Argument(help: "The row's primary key.")
    var id: String?

    @Argument(help: "One column of the row.")
    var column: String?

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
            let rows = try store.readForCLI { try access.rows(limit: limit, $0) }
            printAll(rows, schema, printer)
            return
        }
        let key = try schema.parseID(id)
        let selected = try column.map { try schema.column($0) }
        guard let row = try store.readForCLI({ try access.row(key, $0) }) else { throw access.noRow(key) }
        if let selected {
            let value = row.first { $0.0 == selected.name }?.1 ?? .null
            printer.line(options.json ? ValueFormat.json(value).rendered : ValueFormat.human(value))
        } else if options.json {
            printer.document(ValueFormat.json(row: row))
        } else {
            printer.table(row.reduce(into: TextTable("COLUMN", "VALUE")) { $0.append([$1.0, ValueFormat.human($1.1)]) })
        }
    }

    private func printAll(_ rows: [[(String, SQLiteValue)]], _ schema: TableSchema, _ printer: Printer) {
        if options.json {
            printer.document(.array(rows.map(ValueFormat.json(row:))))
            return
        }
        var output = TextTable(headers: schema.columns.map(\.name))
        for row in rows {
            output.append(row.map { ValueFormat.human($0.1) })
        }
        printer.table(output)
        if rows.isEmpty { printer.line("(no rows)") }
    }
}
