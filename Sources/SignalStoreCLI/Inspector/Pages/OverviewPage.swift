#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore
#if SIGNALSTORE_SYNC
import SignalStoreSync
#endif

/// `/`: the database at a glance, kept current as entries commit: its tables with their row
/// counts, the feed's position, the durable consumers with their lag, and sync's state.
enum OverviewPage {
    static func response(_ inspector: Inspector) -> Response {
        do {
            let store = inspector.store
            let head = try CLIFailure.run { try store.lastChangeSeq }
            let journal = try CLIFailure.run { try store.journalSummary() }
            let tables = try SchemaReader.tableNames(inspector.store).map { ($0, try rowCount(of: $0, in: store)) }
            let consumers = try CLIFailure.run { try store.consumers }
            let version = try store.readForCLI(AppliedMigration.all).last.map { "\($0.version) (\($0.name))" } ?? "0 (no migrations applied)"
            let tableRows = tables.map { name, count -> HTML in
                "<tr><td><a href=\"/tables/\(PathSegment.encode(name))\">\(name)</a></td><td class=\"num\">\(count.formatted())</td></tr>"
            }
            let consumerRows = consumers.map { consumer -> HTML in
                "<tr><td>\(consumer.name)</td><td class=\"num\">#\(consumer.acknowledgedSeq)</td><td class=\"num\">\(head - consumer.acknowledgedSeq)</td></tr>"
            }
            return Page.response("Overview", inspector, events: "/events", refresh: true, """
                <h1>Overview</h1>
                <div id="overview" class="live-part">
                <dl class="facts"><dt>Schema version</dt><dd>\(version)</dd><dt>Last seq</dt><dd id="last-seq">\(head)</dd>
                <dt>Journal</dt><dd>\(journal.entries) entries kept, pruned through seq \(journal.prunedThrough)</dd></dl>
                <h2>Tables</h2>
                <table class="rows" id="tables"><thead><tr><th>table</th><th>rows</th></tr></thead><tbody>\(tableRows)</tbody></table>
                \(tables.isEmpty ? "<p class=\"none\">No tables yet: run <code>signalstore migrate</code>.</p>" as HTML : "")
                <h2>Durable consumers</h2>
                \(consumers.isEmpty
                    ? "<p class=\"none\">No durable consumers (an app registers one with <code>store.changes(consumer:)</code>).</p>"
                    : "<table class=\"rows\" id=\"consumers\"><thead><tr><th>consumer</th><th>acknowledged</th><th>lag (entries)</th></tr></thead><tbody>\(consumerRows)</tbody></table>" as HTML)
                \(Page.glossary)
                <h2>Sync</h2>
                \(try syncSection(store))
                </div>
                """)
        } catch {
            return Page.error(inspector, .internalServerError, CLIFailure.convert(error).description)
        }
    }

    #if SIGNALSTORE_SYNC
    /// What the file says of its sync: position, uploads waiting, conflicts.
    private static func syncSection(_ store: Store) throws(CLIError) -> HTML {
        let status: SyncFileStatus?
        do {
            status = try SyncClient.fileStatus(in: store)
        } catch {
            throw CLIError(error.description)
        }
        guard let status else { return "<p class=\"none\" id=\"sync\">This database has never synced (<code>signalstore sync</code>).</p>" }
        let conflicts = status.conflicts.map { conflict -> HTML in
            "<tr><td class=\"num\">#\(conflict.id)</td><td>\(conflict.table)</td><td>\(conflict.operation.rawValue)</td><td>\(conflict.isLocal ? "this replica" : conflict.origin)</td><td>\(conflict.rule)</td><td>\(conflict.collidedWith)</td></tr>"
        }
        return """
            <dl class="facts" id="sync"><dt>Origin</dt><dd>\(status.origin)</dd><dt>Server log applied through</dt><dd>\(status.serverCursor)</dd>
            <dt>Waiting to upload</dt><dd>\(status.pendingUpload)</dd><dt>Conflicts</dt><dd id="conflict-count">\(status.conflicts.count)</dd></dl>
            \(conflicts.isEmpty ? "" : "<table class=\"rows\" id=\"conflicts\"><thead><tr><th>#</th><th>table</th><th>op</th><th>from</th><th>rule broken</th><th>collided with</th></tr></thead><tbody>\(conflicts)</tbody></table><p>Fix them with <code>signalstore sync conflicts</code>.</p>" as HTML)
            """
    }
    #else
    private static func syncSection(_ store: Store) throws(CLIError) -> HTML {
        "<p class=\"none\" id=\"sync\">This signalstore was built without sync (<code>--traits Sync</code>).</p>"
    }
    #endif
}
#endif
