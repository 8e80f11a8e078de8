/// What a live aggregate tells from a commit's journal entries alone, without reading the rows:
/// whether a row the commit updated matches the filter now, and with which group and value.
///
/// An update's entries hold the new value of each column it set, an insert's the whole row, and
/// the aggregate holds each member's group and value. So a row that set no column the filter
/// reads keeps its membership, and a filter that is one `column IS value` (or none) is decided
/// by the column's new value. A row is read when its entries cannot tell: the new value may
/// equal the filter's under a collation (`'Open'` for `'open'`), an updated row joins without
/// setting its group or value column, the filter is of another form, or the row was deleted or
/// moved to another rowid in the commit.
struct JournalMembership: Sendable {
    /// The filter's columns, lowercased; `nil` when unknown (an SQL fragment): every row is read.
    let filterColumns: Set<String>?
    /// The filter, when it is one `column IS value` whose column compares by a built-in
    /// collation.
    let comparison: Comparison?
    /// The column grouped by and the column aggregated, lowercased; `nil` for none.
    let groupColumn: String?
    let valueColumn: String?
    /// The model's columns other than its primary key, lowercased: an update of any other
    /// column may move the row to another rowid.
    let stableColumns: Set<String>

    /// A filter `column IS value`.
    struct Comparison: Sendable {
        /// Lowercased.
        let column: String
        let value: SQLiteValue
        /// The routing key of `value` (``ResultsKey``).
        let key: SQLiteValue

        /// Whether a row whose column holds `stored` matches: `true` when it is the filter's
        /// value itself, `false` when no built-in collation finds them equal (its routing keys
        /// do not meet the filter's), `nil` when only a read can tell.
        func matches(_ stored: SQLiteValue) -> Bool? {
            if Self.isIdentical(stored, value) { return true }
            return ResultsKey.routingKeys(of: stored).contains(key) ? nil : false
        }

        /// The same type and the same integer or bytes (Swift's `==` on strings compares
        /// canonical equivalents equal, SQL's `BINARY` does not).
        private static func isIdentical(_ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
            switch (a, b) {
            case (.integer(let a), .integer(let b)): a == b
            case (.text(var a), .text(var b)):
                a.utf8.count == b.utf8.count && a.withUTF8 { a in b.withUTF8 { b in a.elementsEqual(b) } }
            default: false
            }
        }
    }

    /// The same, deciding a changed filter column by a read: for a column whose collation is
    /// the app's own, which may find values equal that routing keys do not.
    var withoutComparison: JournalMembership {
        JournalMembership(filterColumns: filterColumns, comparison: nil, groupColumn: groupColumn, valueColumn: valueColumn, stableColumns: stableColumns)
    }

    /// Of the rows `rowIDs` of `table`, those `changes` tell, with what each is now (`nil`: not
    /// a member), and the rest, to read. `members` are the aggregate's members before `changes`.
    func tell(
        _ rowIDs: Set<Int64>, from changes: some Sequence<Change>, table: String, members: [Int64: AggregateState.Member]
    ) -> (told: [Int64: AggregateState.Member?], unread: Set<Int64>) {
        guard let filterColumns, !rowIDs.isEmpty else { return ([:], rowIDs) }
        var set: [Int64: [String: SQLiteValue]] = [:]
        var inserted = Set<Int64>()
        var untold = Set<Int64>()
        for change in changes where change.table == table && rowIDs.contains(change.rowID) {
            switch change.operation {
            case .update:
                guard let column = change.column?.lowercased(), stableColumns.contains(column) else { untold.insert(change.rowID); continue }
                set[change.rowID, default: [:]][column] = change.newValue ?? .null
            case .insert:
                // Only an insert that begins the row's entries: one after others replaced a row.
                guard set[change.rowID] == nil, members[change.rowID] == nil, let row = change.rowMembers else { untold.insert(change.rowID); continue }
                set[change.rowID] = Dictionary(row.map { ($0.column.lowercased(), $0.value) }) { _, last in last }
                inserted.insert(change.rowID)
            case .delete:
                untold.insert(change.rowID)
            }
        }
        var told: [Int64: AggregateState.Member?] = [:]
        var unread = Set<Int64>()
        for rowID in rowIDs {
            guard !untold.contains(rowID), let columns = set[rowID],
                  let member = member(setting: columns, was: members[rowID], isNew: inserted.contains(rowID), filterColumns)
            else {
                unread.insert(rowID)
                continue
            }
            told[rowID] = member
        }
        return (told, unread)
    }

    /// What a row is after updates of `columns` (new values by column; every column of a new
    /// row): `.some(nil)` when it does not match, `nil` when only a read can tell.
    private func member(setting columns: [String: SQLiteValue], was: AggregateState.Member?, isNew: Bool, _ filterColumns: Set<String>) -> AggregateState.Member?? {
        let matches: Bool? = if isNew && filterColumns.isEmpty {
            true
        } else if !isNew && filterColumns.isDisjoint(with: columns.keys) {
            was != nil
        } else if let comparison, let stored = columns[comparison.column] {
            comparison.matches(stored)
        } else {
            nil
        }
        guard let matches else { return nil }
        guard matches else { return .some(nil) }
        guard let group = Self.value(of: groupColumn, columns, held: was?.group),
              let value = Self.value(of: valueColumn, columns, held: was?.value)
        else { return nil }
        return .some(AggregateState.Member(group: group, value: value))
    }

    /// A column's value after the updates: the one set, else the one the member held; NULL
    /// for no column (a count, one total), as the aggregate's read selects it.
    private static func value(of column: String?, _ columns: [String: SQLiteValue], held: SQLiteValue?) -> SQLiteValue? {
        guard let column else { return .null }
        return columns[column] ?? held
    }
}
