// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import ArgumentParser
import Foundation
import SignalStore
import SignalStoreSync

/// `signalstore sync resolve ID --keep winner|loser | --value V`: settles a concurrent edit
/// for every replica.
struct SyncResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle a concurrent edit listed by `sync conflicts`: keep the winner, restore the loser, or write another value.",
        discussion: """
            When two replicas change one column of one row apart, the later change stands and the \
            other is listed on every replica as a concurrent edit, with base, winner and loser. \
            Resolving it writes one ordinary change (journaled, revertable with `signalstore \
            revert`, uploaded by the next sync) and takes the edit out of every replica's inbox. \
            The value of --value is parsed as `set` parses it, for the edit's column. Needs no \
            server: the next `signalstore sync` uploads the resolution.

            Examples:
              signalstore sync resolve 41 --keep loser --db app.sqlite
              signalstore sync resolve 41 --value "paid, then cancelled" --db app.sqlite
            """
    )

    /// Which side `--keep` keeps.
    enum Side: String, ExpressibleByArgument, CaseIterable {
        case winner, loser
    }

    @Argument(help: ArgumentHelp("The edit's id, as `sync conflicts` lists it (the same on every replica).", valueName: "id"))
    var id: Int64

    @Option(name: .long, help: ArgumentHelp("Keep the value that stands (winner) or write the overwritten one again (loser).", valueName: "winner|loser"))
    var keep: Side?

    @Option(name: .long, help: ArgumentHelp("Write this value instead.", valueName: "value"))
    var value: String?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        switch (keep, value) {
        case (nil, nil): throw ValidationError("say how to resolve edit #\(id): --keep winner, --keep loser, or --value VALUE")
        case (.some, .some): throw ValidationError("give --keep or --value, not both")
        default: break
        }
    }

    func run() throws {
        let context = CommandContext.current
        let store = try DatabaseOpener.open(options, access: .readWrite)
        defer { store.close() }
        do {
            let resolution = try self.resolution(store)
            try SyncClient.resolve(id, with: resolution, in: store)
            if options.json {
                context.console.print(JSONValue.object([("type", .string("resolved")), ("id", .integer(id))]).rendered)
            } else {
                context.console.print("resolved concurrent edit #\(id) as a local change; the next sync uploads it, and the edit leaves every replica's inbox")
            }
        } catch let error as SyncError {
            throw CLIError(error.description)
        }
    }

    private func resolution(_ store: Store) throws -> SyncConflict.Resolution {
        switch keep {
        case .winner: return .keepWinner
        case .loser: return .restoreLoser
        case nil: break
        }
        guard let edit = try SyncClient.conflicts(in: store).first(where: { $0.kind == .concurrentEdit && $0.id == id }), let name = edit.column else {
            throw CLIError("there is no concurrent edit #\(id) in this database's inbox (resolved already, here or on another replica?); list them with `signalstore sync conflicts`")
        }
        let schema = try SchemaReader.table(edit.table, in: store)
        guard let column = schema.column(named: name) else {
            throw CLIError("concurrent edit #\(id) is about \(edit.table).\(name), which this database no longer has")
        }
        return .value(try ValueParser.parse(value ?? "", for: column, in: schema.name))
    }
}
#endif
