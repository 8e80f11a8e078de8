// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import ArgumentParser
import Foundation
import SignalStore
import SignalStoreSync

/// `signalstore sync setup --postgres ADMIN_URL --scope-column COLUMN`: prepares the server
/// for sync per scope, enforced by PostgreSQL's row-level security.
struct SyncSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Prepare the PostgreSQL server for sync per scope: each role reads and writes only its scopes' rows.",
        discussion: """
            Connect as the owner of the sync tables (or a superuser). The synced tables of the \
            database that have the scope column sync per scope: a row's scope is its value of \
            that column. The others are shared by every role. PostgreSQL's row-level security \
            enforces it for every client, this one or psql with a role's password.

            The server then takes entries only of the database's synced tables and columns, and \
            values up to --max-value-bytes; it refuses any other entry, and the replica that made \
            it lists it under `signalstore sync conflicts`.

            Idempotent: run it again after a migration adds a table or a column. On a server \
            that already syncs, the log's entries get their scopes and the roles lose the write \
            privileges of earlier versions. Then give each role its scopes with \
            `signalstore sync grant`.

            Examples:
              signalstore sync setup --postgres postgres://admin@db.example.com/app --scope-column team_id --db app.sqlite
            """
    )

    @Option(name: .long, help: ArgumentHelp("The server, as the sync tables' owner (default: $SIGNALSTORE_POSTGRES_URL).", valueName: "url"))
    var postgres: String?

    @Option(name: .customLong("scope-column"), help: ArgumentHelp("The column that holds each row's scope.", valueName: "column"))
    var scopeColumn: String

    @Option(name: .customLong("table"), help: ArgumentHelp("The synced tables (repeatable; default: every table), as `sync --table` names them.", valueName: "table"), completion: Completions.tables)
    var tables: [String] = []

    @Option(name: .customLong("max-value-bytes"), help: ArgumentHelp("The largest value the server takes, in bytes (default: 1048576 on a new server; unchanged when omitted).", valueName: "bytes"))
    var maxValueBytes: Int64?

    @OptionGroup var options: GlobalOptions

    /// `sync`, which parses `--postgres` when it comes after the subcommand's name too.
    @ParentCommand var sync: SyncCommand

    func validate() throws {
        if let maxValueBytes, maxValueBytes <= 0 {
            throw ValidationError("--max-value-bytes takes a positive number of bytes (1048576 for 1 MiB), not \(maxValueBytes)")
        }
    }

    func run() throws {
        let context = CommandContext.current
        let url = try SyncRun.url(postgres ?? sync.postgres, context)
        let store = try DatabaseOpener.open(options, access: .readOnly)
        defer { store.close() }
        let (scopeColumn, tables, limit) = (scopeColumn, tables.isEmpty ? nil : tables, maxValueBytes)
        guard let scoped = try SyncRun.untilStopped(context, { () async throws(SyncError) in
            try await SyncScopes.setUp(url, scopeColumn: scopeColumn, store: store, tables: tables, maxValueBytes: limit)
        }) else { return }
        let names = scoped.keys.sorted()
        if options.json {
            context.console.print(JSONValue.object([
                ("type", .string("setup")), ("scope_column", .string(scopeColumn)), ("scoped_tables", .array(names.map(JSONValue.string))),
            ]).rendered)
        } else {
            context.console.print("set up \(url.redacted) for sync per \(scopeColumn): \(names.joined(separator: ", ")) sync per scope, other tables are shared")
            context.console.print("next: signalstore sync grant --postgres URL ROLE SCOPE… for each role")
        }
    }
}

/// `signalstore sync grant --postgres ADMIN_URL ROLE SCOPE…`.
struct SyncGrantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Let a PostgreSQL role read and write the rows of these scopes.",
        discussion: """
            The role must exist (CREATE ROLE alice LOGIN PASSWORD '…'); this adds the scopes and \
            the privileges on the sync tables that a replica needs. Replicas of the role that are \
            running fetch the scopes' rows without a restart.

            Examples:
              signalstore sync grant --postgres postgres://admin@db.example.com/app alice 7 9
            """
    )

    @OptionGroup var grant: ScopeGrantArguments

    /// `sync`, which parses `--postgres` when it comes after the subcommand's name too.
    @ParentCommand var sync: SyncCommand

    func run() throws {
        try grant.change("granted", postgres: sync.postgres) { url, role, scopes throws(SyncError) in try await SyncScopes.grant(url, role: role, scopes: scopes) }
    }
}

/// `signalstore sync revoke --postgres ADMIN_URL ROLE SCOPE…`.
struct SyncRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Take scopes from a PostgreSQL role: its replicas remove those scopes' rows.",
        discussion: """
            From then on the server shows the role nothing of those scopes and refuses its \
            writes to them. Replicas of the role that are running remove the scopes' rows \
            without a restart.

            Examples:
              signalstore sync revoke --postgres postgres://admin@db.example.com/app alice 9
            """
    )

    @OptionGroup var grant: ScopeGrantArguments

    /// `sync`, which parses `--postgres` when it comes after the subcommand's name too.
    @ParentCommand var sync: SyncCommand

    func run() throws {
        try grant.change("revoked", postgres: sync.postgres) { url, role, scopes throws(SyncError) in try await SyncScopes.revoke(url, role: role, scopes: scopes) }
    }
}

/// What `grant` and `revoke` take.
struct ScopeGrantArguments: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The server, as the sync tables' owner (default: $SIGNALSTORE_POSTGRES_URL).", valueName: "url"))
    var postgres: String?

    @Argument(help: ArgumentHelp("The PostgreSQL role.", valueName: "role"))
    var role: String

    @Argument(help: ArgumentHelp("The scopes: values of the scope column.", valueName: "scope"))
    var scopes: [String] = []

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func change(_ done: String, postgres parsed: String?, _ body: @escaping @Sendable (PostgresURL, String, [String]) async throws(SyncError) -> Void) throws {
        let context = CommandContext.current
        guard !scopes.isEmpty else { throw CLIError("name the scopes to \(done == "granted" ? "grant" : "revoke") after the role: \(role) 7 9") }
        let url = try SyncRun.url(postgres ?? parsed, context)
        let (role, scopes) = (role, scopes)
        guard try SyncRun.untilStopped(context, { () async throws(SyncError) in try await body(url, role, scopes) }) != nil else { return }
        if json {
            context.console.print(JSONValue.object([
                ("type", .string(done)), ("role", .string(role)), ("scopes", .array(scopes.map(JSONValue.string))),
            ]).rendered)
        } else {
            context.console.print("\(done) \(role) scope\(scopes.count == 1 ? "" : "s") \(scopes.joined(separator: ", ")); its running replicas follow at their next pass")
        }
    }
}
#endif
