import Foundation

/// What a live result or aggregate tells from a commit's journal entries alone, without reading
/// the rows: whether a row the commit changed matches the filter now, and the values it carries
/// (a result's sort key, an aggregate's group and value).
///
/// An update's entries hold the new value of each column it set, an insert's the whole row, and
/// the result or aggregate holds what each member carried. So a row that set no column the
/// filter reads keeps its membership, and a filter that is one `column IS value` (or none) is
/// decided by the column's new value. A row is read when its entries cannot tell: the new value
/// may equal the filter's under a collation (`'Open'` for `'open'`), a row joins without setting
/// a column it carries, or carries a parent's value, the filter is of another form, or the row
/// was deleted or moved to another rowid in the commit.
struct JournalMembership: Sendable {
    /// The filter's columns, lowercased; `nil` when unknown (an SQL fragment): every row is read.
    let filterColumns: Set<String>?
    /// The filter, when it is one `column IS value` whose column compares by a built-in
    /// collation.
    let comparison: Comparison?
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

        /// The comparison of a filter that is one `column IS value` with a routing key.
        init?(_ filter: FilterExpression?) {
            guard case .comparison(let column, .same, let value)? = filter, let key = ResultsKey(column: column, equalTo: value) else { return nil }
            self.column = column.lowercased()
            self.value = value
            self.key = key.value
        }

        /// Whether a row whose column holds `stored` matches: `true` when it is the filter's
        /// value itself, `false` when no built-in collation finds them equal (its routing keys
        /// do not meet the filter's), `nil` when only a read can tell.
        func matches(_ stored: SQLiteValue) -> Bool? {
            if Self.isIdentical(stored, value) { return true }
            if let only = ResultsKey.onlyRoutingKey(of: stored) { return only == key ? nil : false }
            return ResultsKey.routingKeys(of: stored).contains(key) ? nil : false
        }

        /// The same type and the same integer or bytes (Swift's `==` on strings compares
        /// canonical equivalents equal, SQL's `BINARY` does not).
        private static func isIdentical(_ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
            switch (a, b) {
            case (.integer(let a), .integer(let b)): a == b
            case (.text(var a), .text(var b)):
                a.utf8.count == b.utf8.count && a.withUTF8 { a in
                    b.withUTF8 { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
                }
            default: false
            }
        }
    }

    /// One value a member carries.
    enum Carried: Sendable {
        /// A column of the model's table (lowercased): its new value, else the one held.
        case column(String)
        case rowID
        /// No column: NULL (a count's value, one total's group).
        case null
        /// A value the entries never hold (a parent's column): the one held, while the row does
        /// not set `link`, the column that names the parent (lowercased).
        case held(link: String)
    }

    /// Of the rows `rowIDs` of `table`, those `changes` tell, with the values each carries now
    /// (`nil`: not a member), and the rest, to read. `held` gives what a row carried before
    /// `changes`, `nil` for a row that was not a member.
    func tell(
        _ rowIDs: Set<Int64>, from changes: some Collection<Change>, table: String,
        carrying carried: [Carried], held: (Int64) -> [SQLiteValue]?
    ) -> (told: [Int64: [SQLiteValue]?], unread: Set<Int64>) {
        guard let filterColumns, !rowIDs.isEmpty else { return (.init(), rowIDs) }
        if let (rowID, column, value) = Self.oneUpdate(changes, of: rowIDs, table: table) {
            // A model's set: one entry, told without collecting the batch's rows.
            guard stableColumns.contains(column),
                  let values = values(of: rowID, setting: .one(column: column, value: value), held: held(rowID), isNew: false, filterColumns, carried)
            else { return (.init(), rowIDs) }
            return ([rowID: values], [])
        }
        var set = [Int64: [String: SQLiteValue]]()
        var inserted = Set<Int64>()
        var untold = Set<Int64>()
        for change in changes where change.table == table && rowIDs.contains(change.rowID) {
            switch change.operation {
            case .update:
                guard let column = change.column?.lowercased(), stableColumns.contains(column) else { untold.insert(change.rowID); continue }
                set[change.rowID, default: [:]][column] = change.newValue ?? .null
            case .insert:
                // Only an insert that begins the row's entries: one after others replaced a row.
                guard set[change.rowID] == nil, held(change.rowID) == nil, let row = change.rowMembers else { untold.insert(change.rowID); continue }
                set[change.rowID] = Dictionary(row.map { ($0.column.lowercased(), $0.value) }) { _, last in last }
                inserted.insert(change.rowID)
            case .delete:
                untold.insert(change.rowID)
            }
        }
        var told = [Int64: [SQLiteValue]?]()
        var unread = Set<Int64>()
        for rowID in rowIDs {
            guard !untold.contains(rowID), let columns = set[rowID],
                  let values = values(of: rowID, setting: .columns(columns), held: held(rowID), isNew: inserted.contains(rowID), filterColumns, carried)
            else {
                unread.insert(rowID)
                continue
            }
            told[rowID] = values
        }
        return (told, unread)
    }

    /// The row, column (lowercased) and new value when `changes` are one update of a column of
    /// the one row `rowIDs` holds, in `table`; `nil` for any other batch.
    private static func oneUpdate(_ changes: some Collection<Change>, of rowIDs: Set<Int64>, table: String) -> (Int64, String, SQLiteValue)? {
        guard rowIDs.count == 1, let (change, column) = changes.onlyColumnUpdate, change.table == table, rowIDs.contains(change.rowID) else { return nil }
        return (change.rowID, column.lowercased(), change.newValue ?? .null)
    }

    /// The new values a row's entries set, by lowercased column: one (a model's set, kept out of
    /// a dictionary), or many (every column of a new row).
    private enum Setting {
        case one(column: String, value: SQLiteValue)
        case columns([String: SQLiteValue])

        subscript(column: String) -> SQLiteValue? {
            switch self {
            case .one(let set, let value): set == column ? value : nil
            case .columns(let columns): columns[column]
            }
        }

        /// Whether none of `columns` is set.
        func setsNone(of columns: Set<String>) -> Bool {
            switch self {
            case .one(let column, _): !columns.contains(column)
            case .columns(let set): columns.isDisjoint(with: set.keys)
            }
        }
    }

    /// What a row carries after its entries set `columns`: `.some(nil)` when it does not
    /// match, `nil` when only a read can tell.
    private func values(
        of rowID: Int64, setting columns: Setting, held: [SQLiteValue]?, isNew: Bool,
        _ filterColumns: Set<String>, _ carried: [Carried]
    ) -> [SQLiteValue]?? {
        let matches: Bool? = if isNew && filterColumns.isEmpty {
            true
        } else if !isNew && columns.setsNone(of: filterColumns) {
            held != nil
        } else if let comparison, let stored = columns[comparison.column] {
            comparison.matches(stored)
        } else {
            nil
        }
        guard let matches else { return nil }
        guard matches else { return .some(nil) }
        var values: [SQLiteValue] = []
        values.reserveCapacity(carried.count)
        for index in 0..<carried.count {
            let now: SQLiteValue? = switch carried[index] {
            case .column(let column): columns[column] ?? held?[index]
            case .rowID: .integer(rowID)
            case .null: .null
            case .held(let link): columns[link] == nil ? held?[index] : nil
            }
            guard let now else { return nil }
            values.append(now)
        }
        return .some(values)
    }
}
