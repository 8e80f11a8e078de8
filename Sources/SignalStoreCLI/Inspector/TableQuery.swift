#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// A page of a table's rows as the table page asks for it: sorted by one column, filtered by
/// conditions that must all hold, and paged by key (keyset paging) forwards and backwards, so
/// the thousandth page of a million-row table costs what the first does when the sort column
/// is indexed.
///
/// Column names come from the schema and are quoted; every value is bound (``SQL``).
struct TableQuery {
    /// A filter's comparison.
    enum Comparison: String, CaseIterable {
        case equals = "eq", notEquals = "ne", less = "lt", greater = "gt", contains, isNull = "null", isNotNull = "notnull"

        /// How the filter form names it.
        var label: String {
            switch self {
            case .equals: "="
            case .notEquals: "≠"
            case .less: "<"
            case .greater: ">"
            case .contains: "contains"
            case .isNull: "is NULL"
            case .isNotNull: "is not NULL"
            }
        }

        /// Whether it compares with a value.
        var takesValue: Bool { self != .isNull && self != .isNotNull }
    }

    /// Where the next page starts: after this sort value and row key. A long sort value is not
    /// carried in the link (a 1 MB note made a 1 MB URL, which the server refused): `nil` stands
    /// for the sort value the row with `key` holds, read when the page is.
    struct Cursor: Equatable {
        let sortValue: SQLiteValue?
        let key: SQLiteValue
    }

    /// The longest sort value (in its link form) a page's link carries; longer ones are read
    /// again by key.
    static let longestCarriedSortValue = 256

    /// One row of a page.
    struct Row {
        /// The row's rowid (for its history); `nil` in a `WITHOUT ROWID` table.
        let rowID: Int64?
        /// The cells, in schema order, read through ``CellValue/selectExpression(_:)``.
        let values: [SQLiteValue]
        /// Where the page after this row starts.
        let cursor: Cursor
    }

    /// One condition a row must meet.
    struct Filter {
        let column: ColumnSchema
        let comparison: Comparison
        let value: SQLiteValue
        /// The value as typed, for the form.
        let typed: String
    }

    /// The most conditions a page takes.
    static let maximumFilters = 5

    /// The URL parameters of the `index`th condition: `where`, `op`, `value`, then `where2`,
    /// `op2`, `value2` and so on.
    static func filterParameters(_ index: Int) -> (column: String, comparison: String, value: String) {
        let suffix = index == 0 ? "" : String(index + 1)
        return ("where" + suffix, "op" + suffix, "value" + suffix)
    }

    let table: TableSchema
    /// The sort column; `nil` sorts by the key.
    let sortColumn: ColumnSchema?
    let descending: Bool
    let filters: [Filter]

    /// The parameters a table page's URL gives: `sort`, `desc`, and conditions
    /// (``filterParameters(_:)``).
    /// - Throws: A ``CLIError`` for a column the table does not have or a value its column
    ///   cannot hold.
    init(table: TableSchema, query: QueryString) throws(CLIError) {
        self.table = table
        sortColumn = try query["sort"].map { name throws(CLIError) in try table.column(name) }
        descending = query["desc"] == "1"
        var filters: [Filter] = []
        for index in 0..<Self.maximumFilters {
            let names = Self.filterParameters(index)
            guard let name = query[names.column] else { continue }
            let column = try table.column(name)
            let comparison = Comparison(rawValue: query[names.comparison] ?? "eq") ?? .equals
            let typed = query[names.value] ?? ""
            var value = SQLiteValue.null
            if comparison == .contains {
                value = .text(typed)
            } else if comparison.takesValue {
                value = try ValueParser.parse(typed, for: column, in: table.name)
            }
            filters.append(Filter(column: column, comparison: comparison, value: value, typed: typed))
        }
        self.filters = filters
    }

    /// The same query in the opposite order: the rows before a cursor are the rows after it
    /// read backwards (SQLite puts NULLs first ascending and last descending, so reversing the
    /// direction reverses the whole order, ties by key included).
    private init(reversing query: TableQuery) {
        table = query.table
        sortColumn = query.sortColumn
        descending = !query.descending
        filters = query.filters
    }

    /// Whether rows have a single key to page by (all but composite-key `WITHOUT ROWID`
    /// tables, which are paged by offset).
    var isKeyed: Bool { table.keyColumn != nil || !table.isWithoutRowID }

    /// The expression rows are sorted by.
    private var sortExpression: SQL {
        sortColumn.map { "\(identifier: $0.name)" } ?? keyExpression
    }

    private var keyExpression: SQL {
        isKeyed ? table.keyExpression : "\(identifiers: table.primaryKey)"
    }

    /// The conditions, joined by AND, their values bound; `nil` without conditions.
    private var filterCondition: SQL? {
        guard !filters.isEmpty else { return nil }
        return SQL(joining: filters.map { filter -> SQL in
            let column: SQL = "\(identifier: filter.column.name)"
            switch filter.comparison {
            case .equals: return "\(column) = \(value: filter.value)"
            case .notEquals: return "\(column) IS NOT \(value: filter.value)"
            case .less: return "\(column) < \(value: filter.value)"
            case .greater: return "\(column) > \(value: filter.value)"
            case .contains: return "instr(CAST(\(column) AS TEXT), \(value: filter.value)) > 0"
            case .isNull: return "\(column) IS NULL"
            case .isNotNull: return "\(column) IS NOT NULL"
            }
        }, separator: " AND ")
    }

    /// The rows before `cursor`, at most `limit`, in the page's order, and whether more come
    /// before them.
    func page(before cursor: Cursor, limit: Int, _ connection: Connection) throws -> (rows: [Row], more: Bool) {
        let reversed = try TableQuery(reversing: self).page(after: cursor, offset: 0, limit: limit, connection)
        return (reversed.rows.reversed(), reversed.more)
    }

    /// The rows after `cursor` (from the first when `nil`), at most `limit`, and whether more
    /// follow. Tables without a single key skip `offset` rows instead.
    /// With `wholeValues`, text and blobs are read whole (an export); otherwise cut for a cell
    /// (``CellValue/selectExpression(_:)``).
    func page(after cursor: Cursor?, offset: Int, limit: Int, wholeValues: Bool = false, _ connection: Connection) throws -> (rows: [Row], more: Bool) {
        let cells = SQL(joining: table.columns.map { wholeValues ? "\(identifier: $0.name)" : CellValue.selectExpression($0.name) }, separator: ", ")
        let rowID: SQL = table.isWithoutRowID ? "NULL" : "rowid"
        let key: SQL = isKeyed ? keyExpression : "NULL"
        var conditions: [SQL] = filterCondition.map { [$0] } ?? []
        if isKeyed, let cursor {
            conditions.append(afterCondition(try resolved(cursor, connection)))
        }
        let direction: SQL = descending ? "DESC" : "ASC"
        let condition: SQL = conditions.isEmpty ? "" : " WHERE \(SQL(joining: conditions, separator: " AND "))"
        let tieBreak: SQL = sortColumn != nil || !isKeyed ? ", \(keyExpression) \(direction)" : ""
        let read = try connection.rows("""
            SELECT \(rowID), \(key), \(sortExpression), \(cells) FROM \(identifier: table.name)\(condition) \
            ORDER BY \(sortExpression) \(direction)\(tieBreak) LIMIT \(limit + 1) OFFSET \(isKeyed ? 0 : offset)
            """)
        let rows = read.prefix(limit).map { values in
            Row(rowID: values[0].integerValue, values: Array(values.dropFirst(3)), cursor: Cursor(sortValue: values[2], key: values[1]))
        }
        return (rows, read.count > limit)
    }

    /// The number of rows the filter keeps.
    func count(_ connection: Connection) throws -> Int64 {
        let condition: SQL = filterCondition.map { " WHERE \($0)" } ?? ""
        return try connection.scalar("SELECT count(*) FROM \(identifier: table.name)\(condition)")?.integerValue ?? 0
    }

    /// `cursor` with its sort value, read from the row with its key when the link did not
    /// carry it.
    private func resolved(_ cursor: Cursor, _ connection: Connection) throws -> (sortValue: SQLiteValue, key: SQLiteValue) {
        if let sortValue = cursor.sortValue { return (sortValue, cursor.key) }
        guard let sortColumn else { return (.null, cursor.key) }
        guard let row = try connection.rows(RowSQL.read([sortColumn.name], from: table.name, at: .key(cursor.key, in: table))).first else {
            throw CLIError("the row this page starts after was deleted meanwhile; start again from the first page")
        }
        return (row[0], cursor.key)
    }

    /// Rows after `cursor` in the page's order, where SQLite sorts NULL first: ascending, the
    /// NULLs come before every value; descending, after.
    private func afterCondition(_ cursor: (sortValue: SQLiteValue, key: SQLiteValue)) -> SQL {
        let key = keyExpression
        guard let sortColumn else { return descending ? "\(key) < \(value: cursor.key)" : "\(key) > \(value: cursor.key)" }
        let sort: SQL = "\(identifier: sortColumn.name)"
        switch (cursor.sortValue == .null, descending) {
        case (true, false):
            return "((\(sort) IS NULL AND \(key) > \(value: cursor.key)) OR \(sort) IS NOT NULL)"
        case (true, true):
            return "(\(sort) IS NULL AND \(key) < \(value: cursor.key))"
        case (false, false):
            return "(\(sort) > \(value: cursor.sortValue) OR (\(sort) = \(value: cursor.sortValue) AND \(key) > \(value: cursor.key)))"
        case (false, true):
            return "(\(sort) < \(value: cursor.sortValue) OR (\(sort) = \(value: cursor.sortValue) AND \(key) < \(value: cursor.key)) OR \(sort) IS NULL)"
        }
    }
}

extension TableQuery.Cursor {
    /// The cursor as two URL parameters' values (`after`, `key`): a storage-class letter, then
    /// the value (`n`, `i42`, `r1.5`, `tabc`, `b00ff`); `k` for a sort value too long to carry,
    /// read again by key.
    var parameters: (after: String, key: String) {
        let after = sortValue.map(Self.encode).flatMap { $0.utf8.count <= TableQuery.longestCarriedSortValue ? $0 : nil } ?? "k"
        return (after, Self.encode(key))
    }

    /// The cursor a page's `after` and `key` parameters give; `nil` when either is missing or
    /// malformed (the page then starts at the first row).
    init?(after: String?, key: String?) {
        guard let after, let key, let keyValue = Self.decode(key) else { return nil }
        if after == "k" {
            self.init(sortValue: nil, key: keyValue)
            return
        }
        guard let sortValue = Self.decode(after) else { return nil }
        self.init(sortValue: sortValue, key: keyValue)
    }

    private static func encode(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "n"
        case .integer(let number): "i\(number)"
        case .real(let number): "r\(number)"
        case .text(let text): "t" + text
        case .blob(let bytes): "b" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    private static func decode(_ text: String) -> SQLiteValue? {
        guard let tag = text.first else { return nil }
        let rest = String(text.dropFirst())
        switch tag {
        case "n": return .null
        case "i": return Int64(rest).map(SQLiteValue.integer)
        case "r": return Double(rest).map(SQLiteValue.real)
        case "t": return .text(rest)
        case "b": return ValueParser.hexBytes(rest).map { .blob(Data($0)) }
        default: return nil
        }
    }
}
#endif
