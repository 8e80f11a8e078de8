import ArgumentParser
import SignalStore

/// `signalstore delete TABLE ID`: deletes one row.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one row and print what it held.",
        discussion: """
            Live objects of the row in running apps complete their signals.

            Example:
              signalstore delete orders 3 --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key.")
    var id: String

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readWrite, busyTimeout: lockTimeout.busyTimeout)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let key = try schema.parseID(id)
        let access = RowAccess(table: schema)
        let row = try store.writeForCLI { connection in
            guard let row = try access.row(key, connection) else { throw access.noRow(key) }
            try connection.statement(RowSQL.delete(from: schema.name, where: schema.keyExpression)).run([key])
            return row
        }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([("table", .string(schema.name)), ("deleted", JSONValue(row: row))]))
        } else {
            printer.line("deleted \(schema.name) \(ValueFormat.human(key)) \(ChangeFormat.rowText(row))")
        }
    }
}
