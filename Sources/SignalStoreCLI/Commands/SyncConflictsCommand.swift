// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import ArgumentParser
import Foundation
import SignalStore
import SignalStoreSync

/// `signalstore sync conflicts [--reapply ID [--set COLUMN=VALUE …] | --discard ID]`: the
/// concurrent edits, the changes that lost to a constraint between replicas, and what to do
/// with each.
struct SyncConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List the concurrent edits, and the changes that lost to a rule between replicas, that the server refused, or that this replica could not read.",
        discussion: """
            When two replicas change one column of one row apart, the later change stands on \
            every replica, and the edit is listed on each with its base, winner and loser values \
            until one replica settles it with `signalstore sync resolve`.

            When replicas' changes break a constraint together (two customers with one email, an \
            order for a customer another replica deleted), the change the server's log puts \
            first stands on every replica, and the other is undone where it was made and kept \
            here: with its whole row, the rule it broke and what it collided with. Everything \
            else keeps syncing. Needs no server: the list is in the database file.

            --reapply ID writes the change again as a new local change (the next sync uploads \
            it); --set fixes the row first, with values parsed as `set` parses them. If the row \
            still breaks a rule, nothing is written and the conflict stays. --discard ID forgets \
            it.

            Examples:
              signalstore sync conflicts --db app.sqlite
              signalstore sync conflicts --reapply 3 --set email=second@example.com --db app.sqlite
              signalstore sync conflicts --discard 3 --db app.sqlite
            """
    )

    @Option(name: .long, help: ArgumentHelp("Write conflict ID's change again (after --set fixes), then forget the conflict.", valueName: "id"))
    var reapply: Int64?

    @Option(name: .customLong("set"), help: ArgumentHelp("With --reapply: change a column of the row first (repeatable).", valueName: "column=value"))
    var assignments: [String] = []

    @Option(name: .long, help: ArgumentHelp("Forget conflict ID; its change stays lost.", valueName: "id"))
    var discard: Int64?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if reapply != nil && discard != nil { throw ValidationError("give --reapply or --discard, not both") }
        if !assignments.isEmpty && reapply == nil { throw ValidationError("--set fixes a row for --reapply ID; add --reapply") }
    }

    func run() throws {
        let context = CommandContext.current
        let store = try DatabaseOpener.open(options, access: reapply == nil && discard == nil ? .readOnly : .readWrite)
        defer { store.close() }
        do {
            if let id = reapply {
                try SyncClient.reapply(id, changing: try changes(for: id, store), in: store)
                report(context, "reapplied", id, "re-applied conflict #\(id) as a local change; the next sync uploads it")
            } else if let id = discard {
                try SyncClient.discard(id, in: store)
                report(context, "discarded", id, "discarded conflict #\(id)")
            } else {
                list(try SyncClient.conflicts(in: store), context)
            }
        } catch let error as SyncError {
            throw CLIError(error.description)
        }
    }

    /// The `--set` assignments, parsed for the conflict's table.
    private func changes(for id: Int64, _ store: Store) throws -> [String: SQLiteValue] {
        guard !assignments.isEmpty else { return [:] }
        guard let conflict = try SyncClient.conflicts(in: store).first(where: { $0.id == id }) else {
            throw CLIError("there is no conflict #\(id) in this database; list them with `signalstore sync conflicts`")
        }
        let schema = try SchemaReader.table(conflict.table, in: store)
        return Dictionary(uniqueKeysWithValues: try Assignment.resolve(try Assignment.parse(assignments), in: schema).map { ($0.0.name, $0.1) })
    }

    private func report(_ context: CommandContext, _ type: String, _ id: Int64, _ line: String) {
        if options.json {
            context.console.print(JSONValue.object([("type", .string(type)), ("id", .integer(id))]).rendered)
        } else {
            context.console.print(line)
        }
    }

    private func list(_ conflicts: [SyncConflict], _ context: CommandContext) {
        if options.json {
            for conflict in conflicts { context.console.print(Self.json(conflict).rendered) }
            return
        }
        guard !conflicts.isEmpty else {
            context.console.print("no conflicts")
            return
        }
        let edits = conflicts.filter { $0.kind == .concurrentEdit }, others = conflicts.filter { $0.kind != .concurrentEdit }
        if !edits.isEmpty {
            context.console.print("concurrent edits (the same on every replica; the winner stands):")
            var table = TextTable("id", "row", "column", "base", "winner", "loser", "lost by")
            for edit in edits {
                let value = { (value: SQLiteValue?) in value.map(ValueFormat.human) ?? "(unknown)" }
                let winner = edit.winningEdit?.deletesRow == true ? "(row deleted)" : value(edit.winner)
                let base = edit.operation == .insert ? "(new row)" : value(edit.base)
                table.append([String(edit.id), Self.row(edit), edit.column ?? "", base, winner, value(edit.loser), Self.source(edit)])
            }
            table.lines.forEach { context.console.print($0) }
            context.console.print("settle one for every replica with `signalstore sync resolve ID --keep winner|loser` or `--value VALUE`")
        }
        guard !others.isEmpty else { return }
        if !edits.isEmpty { context.console.print("") }
        var table = TextTable("id", "change", "row", "from", "rule", "collided with")
        for conflict in others {
            let change = conflict.operation == .update ? "update \(conflict.column ?? "")" : conflict.operation.rawValue
            table.append([String(conflict.id), change, Self.row(conflict), Self.source(conflict), conflict.rule, conflict.collidedWith])
        }
        table.lines.forEach { context.console.print($0) }
        context.console.print("fix and re-apply one with --reapply ID [--set COLUMN=VALUE …], or --discard ID")
    }

    private static func row(_ conflict: SyncConflict) -> String {
        "\(conflict.table) " + conflict.key.map(ValueFormat.human).joined(separator: ", ")
    }

    private static func source(_ conflict: SyncConflict) -> String {
        conflict.isLocal ? "this replica" : conflict.origin + (conflict.uploadedBy.map { " (\($0))" } ?? "")
    }

    static func json(_ conflict: SyncConflict) -> JSONValue {
        .object([
            ("type", .string("conflict")), ("id", .integer(conflict.id)), ("kind", .string(conflict.kind.rawValue)),
            ("position", conflict.position.map(JSONValue.integer) ?? .null), ("table", .string(conflict.table)),
            ("key", .array(conflict.key.map(JSONValue.init))), ("operation", .string(conflict.operation.rawValue)),
            ("column", conflict.column.map(JSONValue.string) ?? .null),
            ("row", conflict.row.map { row in JSONValue(row: row.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) } ?? .null),
            ("origin", .string(conflict.origin)), ("uploadedBy", conflict.uploadedBy.map(JSONValue.string) ?? .null),
            ("local", .bool(conflict.isLocal)), ("rule", .string(conflict.rule)),
            ("collidedWith", .string(conflict.collidedWith)), ("detectedAt", .number(conflict.detectedAt.timeIntervalSince1970)),
        ] + concurrentEditFields(conflict))
    }

    /// A concurrent edit's values and changes.
    private static func concurrentEditFields(_ conflict: SyncConflict) -> [(String, JSONValue)] {
        guard conflict.kind == .concurrentEdit else { return [] }
        let value = { (value: SQLiteValue?) in value.map(JSONValue.init) ?? .null }
        let edit = { (edit: SyncConflict.Edit?) -> JSONValue in
            guard let edit else { return .null }
            return .object([
                ("position", .integer(edit.position)), ("origin", .string(edit.origin)),
                ("uploadedBy", edit.uploadedBy.map(JSONValue.string) ?? .null), ("stampedAt", .number(edit.stampedAt.timeIntervalSince1970)),
                ("deletesRow", .bool(edit.deletesRow)),
            ])
        }
        return [("base", value(conflict.base)), ("winner", value(conflict.winner)), ("loser", value(conflict.loser)),
                ("winningEdit", edit(conflict.winningEdit)), ("losingEdit", edit(conflict.losingEdit))]
    }
}
#endif
