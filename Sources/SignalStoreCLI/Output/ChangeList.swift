import SignalStore

/// A list of change-feed entries as `history` and `revert` print them: one line each, or one
/// JSON array.
struct ChangeList {
    /// Each table's columns in schema order, for the order of a row's values.
    let columnOrders: [String: [String]]
    let json: Bool

    /// Prints `entries`, or the `empty` note (text output only) when there are none.
    func print(_ entries: [Change], empty: String) {
        let printer = Printer(json: json)
        if json {
            printer.document(.array(entries.map { ChangeFormat.json($0, columnOrder: columnOrders[$0.table] ?? []) }))
        } else if entries.isEmpty {
            printer.line(empty)
        } else {
            for entry in entries { printer.line(ChangeFormat.human(entry, columnOrder: columnOrders[entry.table] ?? [])) }
        }
    }
}
