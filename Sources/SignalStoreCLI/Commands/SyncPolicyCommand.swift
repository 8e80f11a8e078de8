// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import ArgumentParser
import Foundation
import SignalStore
import SignalStoreSync

/// `signalstore sync policy --postgres ADMIN_URL TABLE[.COLUMN]… --silent|--review`: whether
/// concurrent edits of these columns are listed.
struct SyncPolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Choose whether concurrent edits of columns are listed (--review, the default) or left to last writer wins (--silent).",
        discussion: """
            The choice lives on the server, so it is the same for every replica, and it applies \
            to changes uploaded from then on. Name a column as TABLE.COLUMN, or a whole table. \
            Connect as the owner of the sync tables (or a superuser).

            Examples:
              signalstore sync policy --postgres postgres://admin@db.example.com/app devices.last_seen --silent
              signalstore sync policy --postgres postgres://admin@db.example.com/app devices --review
            """
    )

    @Option(name: .long, help: ArgumentHelp("The server, as the sync tables' owner (default: $SIGNALSTORE_POSTGRES_URL).", valueName: "url"))
    var postgres: String?

    @Argument(help: ArgumentHelp("The columns, as TABLE.COLUMN, or whole tables.", valueName: "table.column"))
    var targets: [String] = []

    @Flag(help: "Leave their concurrent edits to last writer wins, unlisted (--silent), or list them again (--review).")
    var policy: SyncConflict.Policy

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    /// `sync`, which parses `--postgres` when it comes after the subcommand's name too.
    @ParentCommand var sync: SyncCommand

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("name the columns, as TABLE.COLUMN (or a whole TABLE): orders.note") }
        if let bad = targets.first(where: { $0.hasPrefix(".") || $0.hasSuffix(".") }) {
            throw ValidationError("\(bad) is not TABLE.COLUMN or TABLE: orders.note, or orders")
        }
    }

    func run() throws {
        let context = CommandContext.current
        let url = try SyncRun.url(postgres ?? sync.postgres, context)
        let (policy, named) = (policy, targets.map(Self.split))
        guard try SyncRun.untilStopped(context, { () async throws(SyncError) -> Void in
            for (table, column) in named { try await SyncClient.setPolicy(policy, table: table, column: column, on: url) }
        }) != nil else { return }
        if json {
            context.console.print(JSONValue.object([("type", .string("policy")), ("policy", .string(policy.rawValue)), ("columns", .array(targets.map(JSONValue.string)))]).rendered)
        } else {
            let what = policy == .silent ? "last writer wins silently for" : "concurrent edits are listed for"
            context.console.print("\(what) \(targets.joined(separator: ", ")), on every replica, from the next upload")
        }
    }

    /// `orders.note` → (`orders`, `note`); `orders` → (`orders`, `nil`). A table name holding a
    /// dot is split at its last one.
    private static func split(_ target: String) -> (String, String?) {
        guard let dot = target.lastIndex(of: ".") else { return (target, nil) }
        return (String(target[..<dot]), String(target[target.index(after: dot)...]))
    }
}

extension SyncConflict.Policy: EnumerableFlag {}
#endif
