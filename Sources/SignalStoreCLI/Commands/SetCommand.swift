import ArgumentParser
import SignalStore

/// `signalstore set TABLE ID COLUMN=VALUE…`: changes columns of one row in one transaction.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change columns of one row, in one transaction, and print old → new.",
        discussion: """
            Values are parsed by the column's declared type: INTEGER whole numbers, REAL numbers, \
            TEXT as given, BLOB hex bytes, null for NULL. The shell removes quotes, so quote the \
            whole assignment when its value has quotes:
              purchase_num=3        a number
              status=shipped        text
              note=null             NULL
              "note='null'"         the text null ('...' keeps any text as it is)
              "note=''"             empty text
              "data=x'0aff'"        bytes
            An unquoted x'0aff' reaches the command as x0aff and is refused, not stored. All \
            assignments commit together or not at all; apps watching the row see the change \
            within their poll interval.

            Example:
              signalstore set orders 1 purchase_num=3 status=shipped --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key.")
    var id: String

    @Argument(help: ArgumentHelp("One or more assignments.", valueName: "column=value"), completion: Completions.assignments)
    var assignments: [String] = []

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption

    func validate() throws {
        if assignments.isEmpty { throw ValidationError("give at least one COLUMN=VALUE, e.g. purchase_num=3") }
    }

    func run() throws {
        let parsed = try Assignment.parse(assignments)
        let store = try DatabaseOpener.open(options, access: .readWrite, busyTimeout: lockTimeout.busyTimeout)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let key = try schema.parseID(id)
        let values = try Assignment.resolve(parsed, in: schema)
        let access = RowAccess(table: schema)
        let (old, new) = try store.writeForCLI { connection in
            guard let old = try access.row(key, connection) else { throw access.noRow(key) }
            try connection.statement(RowSQL.update(schema.name, columns: values.map(\.0.name), where: schema.keyExpression))
                .run(values.map(\.1) + [key])
            // The key itself may have been changed.
            let newKey = values.first { $0.0.name == schema.keyColumn?.name }?.1 ?? key
            return (old, try access.row(newKey, connection) ?? old)
        }
        report(values.map(\.0.name), old: old, new: new, key: key, schema: schema)
    }

    private func report(_ columns: [String], old: [(String, SQLiteValue)], new: [(String, SQLiteValue)], key: SQLiteValue, schema: TableSchema) {
        let value = { (row: [(String, SQLiteValue)], column: String) in row.first { $0.0 == column }?.1 ?? .null }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("table", .string(schema.name)), ("id", JSONValue(key)),
                ("changes", .array(columns.map { column in
                    .object([("column", .string(column)), ("old", JSONValue(value(old, column))), ("new", JSONValue(value(new, column)))])
                })),
            ]))
            return
        }
        var output = TextTable("COLUMN", "OLD", "", "NEW")
        for column in columns {
            let (before, after) = (value(old, column), value(new, column))
            // A value set to what it was changes nothing and is journaled nowhere: say so.
            output.append([column, ValueFormat.human(before)] + (before == after ? ["", "(unchanged)"] : ["→", ValueFormat.human(after)]))
        }
        printer.table(output)
    }
}
