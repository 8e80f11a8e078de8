import ArgumentParser
import SignalStore

/// `signalstore tables`: the user tables with their row and column counts.
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tables",
        abstract: "List the tables with their row and column counts.",
        discussion: """
            The store's own _signalstore_* tables are not listed.

            Example:
              signalstore tables --db app.sqlite
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let tables = try SchemaReader.tableNames(store).map { name in
            (try SchemaReader.table(name, in: store), try rowCount(of: name, in: store))
        }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.array(tables.map { table, rows in
                .object([("name", .string(table.name)), ("rows", .integer(rows)), ("columns", .integer(Int64(table.columns.count)))])
            }))
            return
        }
        var output = TextTable("TABLE", "ROWS", "COLUMNS")
        for (table, rows) in tables {
            output.append([table.name, "\(rows)", "\(table.columns.count)"])
        }
        printer.table(output)
    }
}
