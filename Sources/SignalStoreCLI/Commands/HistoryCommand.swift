import ArgumentParser
import Foundation
import SignalStore
#if SIGNALSTORE_SYNC
import SignalStoreSync
#endif

/// `signalstore history TABLE ID`: every entry the change feed keeps for one row.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print every change-feed entry kept for one row, oldest first.",
        discussion: """
            The entries come from every writer (apps, this tool, sqlite3, sync). A row whose \
            INTEGER PRIMARY KEY was changed is followed back to its earlier keys; a deleted \
            row's history ends with the delete. Undo entries with `signalstore revert SEQ`.

            With --postgres (a build with sync), the server's log entries of the row follow: \
            their positions, the replica that made each and the PostgreSQL role that uploaded \
            it, as the server recorded them.

            Examples:
              signalstore history orders 42 --db app.sqlite
              signalstore history orders 42 --json --db app.sqlite
              signalstore history orders 42 --postgres postgres://alice@db.example.com/app --db app.sqlite
            """
    )

    @Argument(help: "The table.", completion: Completions.tables)
    var table: String

    @Argument(help: "The row's primary key (its rowid for a table whose key is not an INTEGER PRIMARY KEY and whose row was deleted).")
    var id: String

    #if SIGNALSTORE_SYNC
    @Option(name: .long, help: ArgumentHelp("Also list the server's log entries of the row, with the role that uploaded each.", valueName: "url"))
    var postgres: String?
    #endif

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let schema = try SchemaReader.table(table, in: store)
        let rowID = try self.rowID(in: schema, store)
        let entries = try CLIFailure.run { try store.history(table: schema.name, rowID: rowID) }
        let list = ChangeList(columnOrders: [schema.name: schema.columnNames], json: options.json)
        #if SIGNALSTORE_SYNC
        if let postgres {
            try printWithServer(entries, list, schema, postgres)
            return
        }
        #endif
        list.print(entries, empty: "(no entries for \(schema.name) \(id); pruned entries are not kept)")
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

#if SIGNALSTORE_SYNC
extension HistoryCommand {
    /// The local entries, then the server's log entries of the row (`--postgres`): in text,
    /// one line each after a heading; in JSON, one object with both lists.
    private func printWithServer(_ entries: [Change], _ list: ChangeList, _ schema: TableSchema, _ postgres: String) throws {
        let context = CommandContext.current
        let url = try SyncRun.url(postgres, context)
        let key = [try schema.parseID(id)]
        let table = schema.name
        guard let server = try SyncRun.untilStopped(context, { () async throws(SyncError) in
            try await SyncClient.serverHistory(url, table: table, key: key)
        }) else { return }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.object([
                ("local", .array(entries.map { ChangeFormat.json($0, columnOrder: schema.columnNames) })),
                ("server", .array(server.map(Self.json))),
            ]))
            return
        }
        list.print(entries, empty: "(no local entries for \(table) \(id); pruned entries are not kept)")
        printer.line("on the server (\(url.redacted)):")
        if server.isEmpty { printer.line("(no entries for \(table) \(id) that this role may read)") }
        for entry in server { printer.line(Self.human(entry, columnOrder: schema.columnNames)) }
    }

    /// `#12 update status = 'paid' by replica 3f…, uploaded by alice, 2026-12-02 07:01:02`.
    static func human(_ entry: ServerLogEntry, columnOrder: [String]) -> String {
        let what = entry.operation?.rawValue ?? "(an operation this version cannot read)"
        let values = columnOrder.compactMap { column in entry.values[column].map { "\(column) = \(ValueFormat.human($0))" } }
        let time = ISO8601DateFormatter().string(from: entry.committedAt)
        return "#\(entry.position) \(what)\(values.isEmpty ? "" : " " + values.joined(separator: ", ")) by replica \(entry.origin), uploaded by \(entry.uploadedBy), \(time)"
    }

    static func json(_ entry: ServerLogEntry) -> JSONValue {
        .object([
            ("position", .integer(entry.position)), ("origin", .string(entry.origin)), ("uploadedBy", .string(entry.uploadedBy)),
            ("committedAt", .number(entry.committedAt.timeIntervalSince1970)), ("operation", entry.operation.map { .string($0.rawValue) } ?? .null),
            ("column", entry.column.map(JSONValue.string) ?? .null),
            ("values", .object(entry.values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })),
        ])
    }
}
#endif
