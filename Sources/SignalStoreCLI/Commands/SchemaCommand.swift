import ArgumentParser
import SignalStore

/// `signalstore schema [TABLE]`: the columns of one table or of all.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show a table's columns (type, nullability, default, key) and rules (UNIQUE, CHECK, foreign keys).",
        discussion: """
            The rules are what a constraint error refers to: each UNIQUE key (with a partial \
            index's condition), each CHECK condition as written, and each foreign key with its \
            ON DELETE / ON UPDATE action.

            Examples:
              signalstore schema --db app.sqlite
              signalstore schema orders --db app.sqlite
            """
    )

    @Argument(help: "The table (default: every table).", completion: Completions.tables)
    var table: String?

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let names = try table.map { [$0] } ?? SchemaReader.tableNames(store)
        let tables = try names.map { try SchemaReader.table($0, in: store) }
        let rules = try tables.map { table throws(CLIError) in try SchemaReader.rules(table.name, in: store) }
        let printer = Printer(json: options.json)
        if options.json {
            let documents = zip(tables, rules).map(Self.json)
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
            rules[index].lines.forEach(printer.line)
        }
    }

    private static func json(_ table: TableSchema, _ rules: TableRules) -> JSONValue {
        .object([
            ("table", .string(table.name)),
            ("columns", .array(table.columns.map { column in
                .object([
                    ("name", .string(column.name)), ("type", .string(column.declaredType)),
                    ("notNull", .bool(column.notNull)), ("default", column.defaultSQL.map(JSONValue.string) ?? .null),
                    ("primaryKey", .bool(column.primaryKeyPosition > 0)),
                ])
            })),
            ("unique", .array(rules.uniqueKeys.map { key in
                .object([("terms", .array(key.termNames.map(JSONValue.string))), ("where", key.condition.map(JSONValue.string) ?? .null)])
            })),
            ("checks", .array(rules.checks.map(JSONValue.string))),
            ("foreignKeys", .array(rules.foreignKeys.map { key in
                .object([
                    ("columns", .array(key.columns.map(JSONValue.string))), ("table", .string(key.parent)),
                    ("referencedColumns", .array(key.referenced.map(JSONValue.string))),
                    ("onDelete", .string(key.onDelete.rawValue)), ("onUpdate", .string(key.onUpdate.rawValue)),
                ])
            })),
        ])
    }
}
