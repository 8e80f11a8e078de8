import ArgumentParser
import SignalStore

/// `signalstore insert TABLE COLUMN=VALUE…`: inserts one row.
struct InsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert",
        abstract: "Insert one row and print it.",
        discussion: """
            Columns not given take their defaults. Values are parsed as for `set`.

            Example:
              signalstore insert orders purchase_num=2 status=new --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: ArgumentHelp("The row's values.", valueName: "column=value"), completion: Completions.assignments)
    var assignments: [String] = []

    @OptionGroup var options: GlobalOptions
    @OptionGroup var lockTimeout: TimeoutOption

    func run() throws {
        let parsed = try Assignment.parse(assignments)
        let store = try DatabaseOpener.open(options, access: .readWrite, busyTimeout: lockTimeout.busyTimeout)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let values = try Assignment.resolve(parsed, in: schema)
        let access = RowAccess(table: schema)
        let row = try store.writeForCLI { connection in
            do {
                try connection.statement(RowSQL.insert(into: schema.name, columns: values.map(\.0.name))).run(values.map(\.1))
            } catch let error as SQLiteError where error.matches(SQLiteError.constraintPrimaryKey) {
                throw existingRow(values, schema) ?? error
            }
            return try insertedRow(values, schema, access, connection)
        }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([("table", .string(schema.name)), ("row", JSONValue(row: row))]))
        } else {
            printer.table(row.reduce(into: TextTable("COLUMN", "VALUE")) { $0.append([$1.0, ValueFormat.human($1.1)]) })
        }
    }

    /// The error for an insert whose key names a row that exists: what to run instead.
    private func existingRow(_ values: [(ColumnSchema, SQLiteValue)], _ schema: TableSchema) -> CLIError? {
        guard let key = schema.keyColumn, let value = values.first(where: { $0.0.name == key.name })?.1 else { return nil }
        let id = ValueFormat.human(value)
        return CLIError("row \(id) exists in '\(schema.name)'; change it with `signalstore set \(schema.name) \(id) COLUMN=VALUE…`, or remove it with `signalstore delete \(schema.name) \(id)` first (nothing was changed)")
    }

    /// The new row, read back by its key (given, or the new rowid).
    private func insertedRow(_ values: [(ColumnSchema, SQLiteValue)], _ schema: TableSchema, _ access: RowAccess, _ connection: Connection) throws -> [(String, SQLiteValue)] {
        if schema.isWithoutRowID, let keyColumn = schema.keyColumn, let key = values.first(where: { $0.0.name == keyColumn.name })?.1 {
            return try access.row(key, connection) ?? []
        }
        let rows = try connection.rows(RowSQL.read(schema.columnNames, from: schema.name, at: .rowID(connection.lastInsertRowID)))
        return rows.first.map { Array(zip(schema.columns.map(\.name), $0)) } ?? []
    }
}
