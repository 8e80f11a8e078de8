import ArgumentParser
import SignalStore

/// `signalstore history TABLE ID`: every entry the change feed keeps for one row.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print every change-feed entry kept for one row, oldest first.",
        discussion: """
            The entries come from every writer (apps, this tool, sqlite3, sync). A row whose \
            INTEGER PRIMARY KEY was changed is followed back to its earlier keys; a deleted \
            row's history ends with the delete. Undo entries with `signalstore revert SEQ`.

            Examples:
              signalstore history orders 42 --db app.sqlite
              signalstore history orders 42 --json --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key (its rowid for a table whose key is not an INTEGER PRIMARY KEY and whose row was deleted).")
    var id: String

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let rowID = try self.rowID(in: schema, store)
        let entries = try CLIFailure.run { try store.history(table: schema.name, rowID: rowID) }
        ChangeList(columnOrders: [schema.name: schema.columnNames], json: options.json).print(entries, empty: "(no entries for \(schema.name) \(id); pruned entries are not kept)")
    }

    /// The rowid the history is kept under: the key itself for an INTEGER PRIMARY KEY, else
    /// the rowid of the row with that key now, else `id` read as a rowid.
    private func rowID(in schema: TableSchema, _ store: Store) throws -> Int64 {
        let key = try schema.parseID(id)
        if schema.rowIDAlias != nil || schema.keyColumn == nil, case .integer(let rowID) = key { return rowID }
        let access = RowAccess(table: schema)
        if let rowID = try CLIFailure.run({ try store.readConnection { connection in try access.rowID(of: key, connection) } }) {
            return rowID
        }
        if let rowID = Int64(id) { return rowID }
        throw CLIError("\(schema.name) has no row \(display(id)) now; a deleted row's history is kept under its rowid: find it with `signalstore changes` and give that number")
    }
}
