#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/revert`, served only with `--allow-writes`: GET shows what reverting seq `from`…`to` would
/// write (a dry run, rolled back) with a confirmation form; POST (the form) reverts.
///
/// The form carries the token as a field as well as the cookie, so another site cannot post it
/// (it cannot read the token), and the server refuses a POST without it.
enum RevertPage {
    static func preview(_ inspector: Inspector, query: QueryString) -> Response {
        guard let range = range(query) else { return badRange(inspector) }
        let overwrite = query["overwrite"] == "1"
        let written: [Change]
        do {
            written = try inspector.store.revertPreview(range, overwritingLaterChanges: overwrite)
        } catch {
            return refused(inspector, range, error, retry: error.isRevertConflict && !overwrite ? "/revert" + query.setting("overwrite", "1").encoded : nil)
        }
        guard !written.isEmpty else { return nothingToRevert(inspector, range) }
        do {
            let orders = try SchemaReader.columnOrders(inspector.store)
            return Page.response("Revert \(range.lowerBound)…\(range.upperBound)", inspector, """
                <h1>Revert seq \(range.lowerBound)…\(range.upperBound)</h1>
                <p>Reverting would write \(written.count) \(written.count == 1 ? "entry" : "entries") (a dry run: nothing is written yet):</p>
                \(entries(written, orders))
                <form method="post" action="/revert" class="confirm">
                <input type="hidden" name="from" value="\(range.lowerBound)"><input type="hidden" name="to" value="\(range.upperBound)">
                <input type="hidden" name="overwrite" value="\(overwrite ? "1" : "0")"><input type="hidden" name="token" value="\(inspector.token)">
                <button type="submit" id="confirm-revert">Revert: \(written.count == 1 ? "write this entry" : "write these \(written.count.formatted()) entries")</button>
                <a href="/feed">Cancel</a></form>
                """)
        } catch {
            return Page.error(inspector, .internalServerError, error.description)
        }
    }

    /// Why the revert cannot be written; for a conflict, a link to preview it overwriting the
    /// later changes.
    private static func refused(_ inspector: Inspector, _ range: ClosedRange<Int64>, _ error: StoreError, retry: String?) -> Response {
        Page.response("Revert refused", inspector, status: .conflict, """
            <h1>Revert seq \(range.lowerBound)…\(range.upperBound)</h1>
            <p class="error" id="message">\(message(for: error))</p>
            \(retry.map { "<p><a id=\"overwrite\" href=\"\($0)\">Preview it overwriting the later changes…</a></p>" as HTML } ?? "")
            """)
    }

    static func perform(_ inspector: Inspector, form: QueryString) -> Response {
        guard let offered = form["token"], InspectorGuard.same(offered, inspector.token) else {
            return Page.error(inspector, .forbidden, "this revert did not come from the inspector's own confirmation form; open the preview and confirm there")
        }
        guard let range = range(form) else { return badRange(inspector) }
        do {
            let written = try inspector.store.revert(range, overwritingLaterChanges: form["overwrite"] == "1")
            guard !written.isEmpty else { return nothingToRevert(inspector, range) }
            let orders = try SchemaReader.columnOrders(inspector.store)
            return Page.response("Reverted", inspector, """
                <h1>Reverted seq \(range.lowerBound)…\(range.upperBound)</h1>
                <p id="message">Wrote \(written.count) \(written.count == 1 ? "entry" : "entries"), as one new commit (revert those to redo):</p>
                \(entries(written, orders))
                <p><a href="/feed">Change feed</a></p>
                """)
        } catch let error as StoreError {
            let retry = error.isRevertConflict && form["overwrite"] != "1" ? "/revert?from=\(range.lowerBound)&to=\(range.upperBound)&overwrite=1" : nil
            return refused(inspector, range, error, retry: retry)
        } catch {
            return Page.error(inspector, .internalServerError, "\(error)")
        }
    }

    /// A revert whose entries' old values are all in place already: it writes nothing, and
    /// says so instead of "Reverted".
    private static func nothingToRevert(_ inspector: Inspector, _ range: ClosedRange<Int64>) -> Response {
        Page.response("Nothing to revert", inspector, """
            <h1>Revert seq \(range.lowerBound)…\(range.upperBound)</h1>
            <p id="message">Nothing to revert: the values these entries replaced are in place already, so nothing was written.</p>
            <p><a href="/feed">Change feed</a></p>
            """)
    }

    /// What went wrong, in the page's terms: the command line's flags mean nothing here.
    private static func message(for error: StoreError) -> String {
        if error.isRevertConflict {
            return error.description.replacingOccurrences(of: "overwrite them explicitly (overwritingLaterChanges: true)", with: "preview overwriting them with the link below")
        }
        if SQLiteError.busy ~= error || SQLiteError.locked ~= error {
            return "another writer holds the database's lock; try again when it is done (nothing was written)"
        }
        return CLIFailure.convert(error).description
    }

    /// The most entries a revert from the page covers: a preview runs the revert and rolls it
    /// back, holding the write lock meanwhile, so an unbounded range from a link could hold it
    /// (and the server's memory) for as long as the whole journal takes.
    static let maximumRange: Int64 = 10_000

    /// `from` and `to` as a seq range; `nil` unless both are seqs, in order, and at most
    /// ``maximumRange`` apart.
    private static func range(_ query: QueryString) -> ClosedRange<Int64>? {
        guard let from = query["from"].flatMap(Int64.init), let to = query["to"].flatMap(Int64.init), from >= 1, from <= to,
              to - from < maximumRange else { return nil }
        return from...to
    }

    private static func badRange(_ inspector: Inspector) -> Response {
        Page.error(inspector, .badRequest, "give the entries to revert as from=SEQ&to=SEQ (from 1 up, from ≤ to, at most \(maximumRange) entries); open a revert from the change feed or a row's history, or revert a larger range with `signalstore revert`")
    }

    private static func entries(_ written: [Change], _ orders: [String: [String]]) -> HTML {
        let rows = written.map { FeedEntry(change: $0, columnOrder: orders[$0.table] ?? []).row(writes: false) }
        return "<table class=\"feed\" id=\"revert-entries\"><thead>\(FeedEntry.headerRow)</thead><tbody>\(rows)</tbody></table>"
    }
}
#endif

#if SIGNALSTORE_INSPECTOR
extension StoreError {
    /// Whether later entries changed what a revert would undo.
    fileprivate var isRevertConflict: Bool {
        if case .revertConflict = self { return true }
        return false
    }
}
#endif
