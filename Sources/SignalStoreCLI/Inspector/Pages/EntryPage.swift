#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore

/// `/entry/SEQ`: one change-feed entry with its values whole, where a list cut them
/// (``FeedEntry/valueLimit``). One entry at a time, so a page holds one entry's values at most.
enum EntryPage {
    static func response(_ inspector: Inspector, seq text: String) -> Response {
        guard let seq = Int64(text), seq >= 1 else {
            return Page.error(inspector, .badRequest, "\(text) is not a seq; open an entry from the change feed or a row's history")
        }
        do {
            guard let change = try inspector.store.journalEntries(after: seq - 1, limit: 1).first, change.seq == seq else {
                return Page.error(inspector, .notFound, "the feed keeps no entry #\(seq) (pruned, or not written yet)")
            }
            let orders = try SchemaReader.columnOrders(inspector.store)
            let entry = FeedEntry(change: change, columnOrder: orders[change.table] ?? [])
            return Page.response("Entry #\(seq)", inspector, """
                <h1>Entry #\(seq): \(change.operation.rawValue) of <a href="\(entry.historyPath)">\(change.table) row \(change.rowID)</a></h1>
                <p class="whole" id="whole-entry">\(ChangeFormat.detail(change, columnOrder: entry.columnOrder))</p>
                """)
        } catch {
            return Page.error(inspector, .notFound, CLIFailure.convert(error).description)
        }
    }
}
#endif
