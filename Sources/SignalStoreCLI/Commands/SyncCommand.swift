// Built when the package builds sync (see Package.swift: CI's sanitizer runs leave it out).
#if SIGNALSTORE_SYNC
import ArgumentParser
import Foundation
import SignalStore
import SignalStoreSync

/// `signalstore sync --postgres URL [--table T …] [--once]`: keeps the database in sync with
/// other databases through PostgreSQL.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the database with other machines' databases through PostgreSQL, until Ctrl-C (or once with --once).",
        discussion: """
            Uploads every change to the synced tables, by any writer of the file (apps, this \
            tool, a sqlite3 shell), to an ordered log in PostgreSQL, and applies the other \
            replicas' changes, where running apps' live objects and signals see them. Conflicting \
            writes to one column resolve the same way everywhere: the later write wins; a delete \
            wins over edits made concurrently. While PostgreSQL cannot be reached, local writes \
            wait and sync retries (0.25 s to 2 s apart).

            The URL is --postgres or SIGNALSTORE_POSTGRES_URL: \
            postgres://user:password@host:port/database?sslmode=verify-full. sslmode is read as \
            libpq reads it: disable; prefer (the default: TLS if the server offers it) and require \
            (TLS or nothing) do not check the certificate; verify-ca checks who signed it; \
            verify-full also checks that it is for the host. sslrootcert=PATH names the CA's PEM \
            file (default: the system's trust roots). schema=NAME holds the sync tables (default \
            signalstore). Percent-escapes in the user, password and database are decoded once, as \
            libpq does; a URL without a password takes it from PGPASSWORD, else from the password \
            file (PGPASSFILE, default ~/.pgpass, which must be chmod 600), so it need not be on the \
            command line. The password is never printed. Every synced table needs a primary key; \
            all replicas must sync the same tables with the same schema.

            --compact removes the server log's entries that later writes superseded (every \
            replica keeps the same rows; new replicas then read only the current state); it is \
            safe while other replicas sync.

            Prints a line after each round (uploaded, downloaded, applied, waiting to upload, \
            behind the server); with --json, one object per line.

            A change that would break a UNIQUE, FOREIGN KEY, CHECK or NOT NULL rule with another \
            replica's never stops sync: the one the server's log puts first stands everywhere, \
            and the other is kept in `signalstore sync conflicts` to fix and re-apply.

            Examples:
              signalstore sync --postgres postgres://app@db.example.com/app --db app.sqlite
              export SIGNALSTORE_POSTGRES_URL=postgres://app@localhost/app
              signalstore sync --once --db app.sqlite
              signalstore sync conflicts --db app.sqlite
            """,
        subcommands: [SyncConflictsCommand.self, SyncResolveCommand.self, SyncPolicyCommand.self, SyncSetupCommand.self, SyncGrantCommand.self, SyncRevokeCommand.self]
    )

    @Option(name: .long, help: ArgumentHelp("The PostgreSQL server (default: $SIGNALSTORE_POSTGRES_URL).", valueName: "url"))
    var postgres: String?

    @Option(name: .customLong("table"), help: ArgumentHelp("Sync only this table (repeatable; default: every table).", valueName: "table"), completion: Completions.tables)
    var tables: [String] = []

    @Flag(name: .long, help: "Sync once, then exit: 0 when everything is uploaded and applied.")
    var once = false

    @Flag(name: .long, help: "Remove the server log's superseded entries (what later writes overwrote), then exit.")
    var compact = false

    @Flag(name: .customLong("new-origin"), help: "Give this file a new replica id first: for a copy of another replica's database file.")
    var newOrigin = false

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let context = CommandContext.current
        let url = try SyncRun.url(postgres, context)
        let store = try DatabaseOpener.open(options, access: .readWrite)
        defer { store.close() }
        let client = SyncClient(store: store, url: url, tables: tables.isEmpty ? nil : tables)
        if newOrigin {
            do { try client.renewOrigin() } catch { throw CLIError(error.description) }
        }
        if compact { return try compactServerLog(client, context) }
        let report = SyncReport(console: context.console, json: options.json)
        let watching = client.status.signal.subscribe(onValue: { status in report.status(status, progress: client.progress.value) })
        defer { watching.dispose() }
        context.console.printError("syncing \((try? options.databasePath()) ?? "the database") with \(url.redacted)\(once ? " once" : " until Ctrl-C")")
        _ = try SyncRun.untilStopped(context) { () async throws(SyncError) in
            if once { try await client.syncOnce() } else { try await client.run() }
        }
        if once { report.progress(client.progress.value, final: true) }
    }
}

extension SyncCommand {
    /// `--compact`: one pass over the server's log.
    private func compactServerLog(_ client: SyncClient, _ context: CommandContext) throws {
        // Stopped before it ended: the server rolls the compaction back or finishes it; either
        // way there is no count to print.
        guard let count = try SyncRun.untilStopped(context, { () async throws(SyncError) in try await client.compactServerLog() }) else { return }
        if options.json {
            context.console.print(JSONValue.object([("type", .string("compacted")), ("removed", .integer(Int64(count)))]).rendered)
        } else {
            context.console.print("compacted: removed \(count) superseded entr\(count == 1 ? "y" : "ies") from the server's log")
        }
    }
}

/// Prints what sync does: a line per round, and every change of connection state.
private final class SyncReport: Sendable {
    let console: Console
    let json: Bool
    /// The last progress printed, so an idle poll that moved nothing prints nothing.
    private let last = Locked<SyncProgress?>(nil)

    init(console: Console, json: Bool) {
        self.console = console
        self.json = json
    }

    func status(_ status: SyncStatus, progress: SyncProgress) {
        switch status {
        case .idle:
            self.progress(progress, final: false)
        case .offline(let error, let retryIn), .waiting(let error, let retryIn):
            if json {
                let type = if case .offline = status { "offline" } else { "waiting" }
                console.print(JSONValue.object([
                    ("type", .string(type)), ("error", .string(error.description)),
                    ("retry_in", .number(Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) / 1e18)),
                ]).rendered)
            } else {
                console.printError("\(status)")
            }
        case .stopped, .connecting, .syncing, .failed:
            break
        }
    }

    func progress(_ progress: SyncProgress, final: Bool) {
        let previous = last.withLock { last in
            defer { last = progress }
            return last
        }
        guard final || previous != progress else { return }
        if progress.scopes != previous?.scopes { scopes(progress, first: previous?.scopes == nil) }
        if json {
            console.print(JSONValue.object([
                ("type", .string(final ? "done" : "progress")), ("uploaded", .integer(Int64(progress.uploaded))),
                ("downloaded", .integer(Int64(progress.downloaded))), ("applied", .integer(Int64(progress.applied))),
                ("pending", .integer(progress.pendingUpload)), ("behind", .integer(progress.behind)),
                ("conflicts", .integer(Int64(progress.conflicts))),
            ]).rendered)
        } else {
            // Changes that did not take effect (lost, refused, unreadable), once there are any.
            let conflicts = progress.conflicts == 0 ? "" : "; \(progress.conflicts) new conflict\(progress.conflicts == 1 ? "" : "s"): signalstore sync conflicts"
            console.print("\(final ? "done" : "synced"): uploaded \(progress.uploaded), downloaded \(progress.downloaded) (applied \(progress.applied)), waiting to upload \(progress.pendingUpload), behind \(progress.behind)\(conflicts)")
        }
    }

    /// The scopes held, when they change: at the first pass, and after a grant or revoke.
    private func scopes(_ progress: SyncProgress, first: Bool) {
        guard let scopes = progress.scopes else { return }
        if json {
            console.print(JSONValue.object([
                ("type", .string("scopes")), ("scopes", .array(scopes.map(JSONValue.string))),
                ("fetched", .integer(Int64(progress.scopeEntriesFetched))), ("removed", .integer(Int64(progress.scopeRowsRemoved))),
            ]).rendered)
        } else {
            let held = scopes.isEmpty ? "none (shared tables only)" : scopes.joined(separator: ", ")
            let moved = first ? "" : "; so far fetched \(progress.scopeEntriesFetched) entries for scopes gained, removed \(progress.scopeRowsRemoved) rows of scopes lost"
            console.print("scopes: \(held)\(moved)")
        }
    }
}

#endif
