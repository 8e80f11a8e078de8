#if SIGNALSTORE_INSPECTOR && SIGNALSTORE_SYNC
import Hummingbird
import SignalStore
import SignalStoreSync

/// `/conflicts`: the inbox of concurrent edits, each with its base, winner and loser; with
/// `--allow-writes`, buttons that resolve one (POST `/conflicts/resolve`, with the token as a
/// form field, as the revert form carries it).
enum InboxPage {
    static func response(_ inspector: Inspector) -> Response {
        let edits: [SyncConflict]
        do {
            edits = try SyncClient.conflicts(in: inspector.store).filter { $0.kind == .concurrentEdit }
        } catch {
            return Page.error(inspector, .internalServerError, error.description)
        }
        guard !edits.isEmpty else {
            return Page.response("Conflict inbox", inspector, """
                <h1>Conflict inbox</h1>
                <p id="message">No concurrent edits: no column was changed on two replicas apart, or every such edit was resolved.</p>
                """)
        }
        let rows = edits.map { row($0, inspector) }
        let actions: HTML = inspector.allowsWrites ? "<th>resolve</th>" : ""
        return Page.response("Conflict inbox", inspector, """
            <h1>Conflict inbox</h1>
            <p>Columns changed on two replicas apart: the later change stands on every replica; resolving one writes one \
            ordinary change and takes it out of every replica's inbox.</p>
            <table class="feed" id="inbox"><thead><tr><th>id</th><th>row</th><th>column</th><th>base</th><th>winner</th><th>loser</th><th>lost by</th>\(actions)</tr></thead>
            <tbody>\(rows)</tbody></table>
            """)
    }

    private static func row(_ edit: SyncConflict, _ inspector: Inspector) -> HTML {
        let value = { (value: SQLiteValue?) -> HTML in value.map { CellValue.cell($0) } ?? "<td class=\"null\">(unknown)</td>" }
        let key = edit.key.map(\.description).joined(separator: ", ")
        let source = edit.isLocal ? "this replica" : edit.origin + (edit.uploadedBy.map { " (\($0))" } ?? "")
        let resolve: HTML = inspector.allowsWrites ? """
            <td><form method="post" action="/conflicts/resolve" class="resolve">\
            <input type="hidden" name="id" value="\(edit.id)"><input type="hidden" name="token" value="\(inspector.token)">\
            <button type="submit" name="keep" value="winner">Keep winner</button> \
            <button type="submit" name="keep" value="loser">Restore loser</button></form></td>
            """ : ""
        return """
            <tr id="edit-\(edit.id)"><td>\(edit.id)</td><td>\(edit.table) \(key)</td><td>\(edit.column ?? "")</td>\
            \(edit.operation == .insert ? "<td class=\"null\">(new row)</td>" : value(edit.base))\(edit.winningEdit?.deletesRow == true ? "<td class=\"null\">(row deleted)</td>" : value(edit.winner))\(value(edit.loser))<td>\(source)</td>\(resolve)</tr>
            """
    }

    /// The form's POST: resolves one edit, keeping the winner or restoring the loser.
    static func resolve(_ inspector: Inspector, form: QueryString) -> Response {
        guard let offered = form["token"], InspectorGuard.same(offered, inspector.token) else {
            return Page.error(inspector, .forbidden, "this resolution did not come from the inspector's own inbox page; open /conflicts and resolve there")
        }
        guard let id = form["id"].flatMap(Int64.init), let keep = form["keep"], ["winner", "loser"].contains(keep) else {
            return Page.error(inspector, .badRequest, "give the edit as id=ID and keep=winner or keep=loser; open /conflicts and use its buttons")
        }
        do {
            try SyncClient.resolve(id, with: keep == "winner" ? .keepWinner : .restoreLoser, in: inspector.store)
        } catch {
            return Page.error(inspector, .conflict, error.description)
        }
        return Page.response("Resolved", inspector, """
            <h1>Resolved concurrent edit #\(id)</h1>
            <p id="message">\(keep == "winner" ? "Kept the winner" : "Restored the loser") as a local change; the next sync uploads it, \
            and the edit leaves every replica's inbox.</p>
            <p><a href="/conflicts">Conflict inbox</a></p>
            """)
    }
}
#endif
