import ArgumentParser
import SignalStore

/// `signalstore schema [TABLE]`: the columns of one table or of all.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the columns of a table (or of every table): type, nullability, default, key.",
        discussion: """
            Examples:
              signalstore schema --db app.sqlite
              signalstore schema orders --db app.sqlite
            """
    )

    @Argument(help: "The table (default: every table).")
    var table: String?

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let names = try table.map { [$0] } ?? SchemaReader.tableNames(store)
        let tables = try names.map { try SchemaReader.table($0, in: store) }
        let printer = Printer(json: options.json)
        if options.json {
            let documents = tables.map(Self.json)
            printer.document(table == nil ? .array(documents) : documents[0])
            return
        }
        for (index, table) in tables.enumerated() {
            if index > 0 { printer.line("") }
            printer.line(table.name)
            var output = TextTable("COLUMN", "TYPE", "NULL", "DEFAULT", "KEY")
            for column in table.columns {
                output.append([
                    column.name, column.declaredType.isEmpty ? "(none)" : column.declaredType,
                    column.notNull ? "no" : "yes", column.defaultSQL ?? "", column.primaryKeyPosition > 0 ? "primary" : "",
                ])
            }
            printer.table(output)
        }
    }

    private static func json(_ table: TableSchema) -> JSONValue {
        .object([
            ("table", .string(table.name)),
            ("columns", .array(table.columns.map { column in
                .object([
                    ("name", .string(column.name)), ("type", .string(column.declaredType)),
                    ("notNull", .bool(column.notNull)), ("default", column.defaultSQL.map(JSONValue.string) ?? .null),
                    ("primaryKey", .bool(column.primaryKeyPosition > 0)),
                ])
            })),
        ])
    }
}
