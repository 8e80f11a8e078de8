/// What a batch's entries did to the parents a query reads through `@Parent` links
/// (``ResultsQuery/parentReads``): for each link, the parent rows whose children must be read
/// again (inserted, deleted, re-keyed, or changed in a column the query reads there), and the
/// keys parents held before (deleted or re-keyed ones), whose children pointed at them.
struct ParentChanges {
    struct Rows {
        var rowIDs = Set<Int64>()
        var formerKeys: [SQLiteValue] = []

        /// Keeps a key a parent held; false for one a ``KeyList`` cannot hold. NULL names no
        /// parent, so it has no children to read.
        mutating func add(former key: SQLiteValue) -> Bool {
            switch key {
            case .integer, .text: formerKeys.append(key)
            case .null: break
            case .real, .blob: return false
            }
            return true
        }
    }

    private(set) var byLink = [ParentJoin: Rows]()

    var isEmpty: Bool { byLink.isEmpty }

    /// No parent changed.
    init() {}

    /// The parent changes among `changes`; `nil` when a former key cannot be told from its
    /// entry, or is neither an integer nor text (a ``KeyList`` cannot hold it): the query then
    /// runs again.
    init?(_ changes: some Sequence<Change>, reads: [ParentJoin: Set<String>]) {
        for (link, columns) in reads {
            let key = link.parentColumn.lowercased()
            var rows = Rows()
            for change in changes where change.table.caseInsensitiveCompare(link.parentTable) == .orderedSame {
                switch change.operation {
                case .insert:
                    rows.rowIDs.insert(change.rowID)
                case .delete:
                    guard let former = change.rowMembers?.first(where: { $0.column.lowercased() == key })?.value,
                          rows.add(former: former) else { return nil }
                case .update:
                    let column = change.column?.lowercased() ?? "rowid"
                    if column == key {
                        guard rows.add(former: change.oldValue ?? .null) else { return nil }
                        rows.rowIDs.insert(change.rowID)
                        // An INTEGER PRIMARY KEY's new value is the row's new rowid.
                        if case .integer(let moved)? = change.newValue { rows.rowIDs.insert(moved) }
                    } else if columns.contains(column) {
                        rows.rowIDs.insert(change.rowID)
                    }
                }
            }
            if !rows.rowIDs.isEmpty || !rows.formerKeys.isEmpty { byLink[link] = rows }
        }
    }
}
