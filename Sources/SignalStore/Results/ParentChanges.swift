/// What a batch's entries did to the parents a query reads through `@Parent` links
/// (``ResultsQuery/parentReads``): for each link, the parent rows whose children must be read
/// again (inserted, deleted, re-keyed, or changed in a column the query reads there), and the
/// keys parents held before (deleted or re-keyed ones), whose children pointed at them.
struct ParentChanges {
    struct Rows {
        var rowIDs = Set<Int64>()
        var formerKeys: [SQLiteValue] = []
        /// The new value of each column (lowercased) the entries set, while they are updates of
        /// one parent row that keep its key; `nil` once they are anything else.
        var values: [String: SQLiteValue]? = [:]

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

    /// The link and the new values when the entries are updates of one parent row's columns
    /// (no insert, delete or new key, through one link): its children keep their parent, and
    /// a member's sort key takes the values where it holds that parent's columns, with no read.
    var told: (link: ParentJoin, values: [String: SQLiteValue])? {
        guard byLink.count == 1, let (link, rows) = byLink.first, rows.rowIDs.count == 1, rows.formerKeys.isEmpty,
              let values = rows.values else { return nil }
        return (link, values)
    }

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
                    rows.values = nil
                case .delete:
                    guard let former = change.rowMembers?.first(where: { $0.column.lowercased() == key })?.value,
                          rows.add(former: former) else { return nil }
                    rows.values = nil
                case .update:
                    let column = change.column?.lowercased() ?? "rowid"
                    if column == "rowid" { rows.values = nil }   // the row moved: told no more
                    if column == key {
                        guard rows.add(former: change.oldValue ?? .null) else { return nil }
                        rows.rowIDs.insert(change.rowID)
                        // An INTEGER PRIMARY KEY's new value is the row's new rowid.
                        if case .integer(let moved)? = change.newValue { rows.rowIDs.insert(moved) }
                        rows.values = nil
                    } else if columns.contains(column) {
                        rows.rowIDs.insert(change.rowID)
                        rows.values?[column] = change.newValue ?? .null
                    }
                }
            }
            if !rows.rowIDs.isEmpty || !rows.formerKeys.isEmpty { byLink[link] = rows }
        }
    }
}
