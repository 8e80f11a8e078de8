/// The query of a ``LiveAggregate``: the rows a filter matches on the model's table, the column
/// aggregated (none for a count) and the column grouped by (none for one total), and the reads
/// the aggregate makes. Values are bound, never spliced.
struct AggregateQuery<Model: PersistentModel>: Sendable {
    let rows: ResultsQuery<Model>
    let valueColumn: String?
    let groupColumn: String?
    /// Whether minimum and maximum are kept (read again when the current one leaves).
    let keepsExtremes: Bool
    /// What membership, groups and values read, lowercased; `nil` when unknown (an SQL fragment).
    let dependencies: Set<String>?
    /// What a member carries, for a commit's entries to tell: its group and its value.
    let carried: [JournalMembership.Carried]
    /// The reads' SQL, written once, as the columns above: a commit's read of its rows built it
    /// again (a third of that read's cost in a debug build).
    private let allRowsSQL: String
    private let someRows: RowIDRead
    private let extremesSQL: String?

    init(rows: ResultsQuery<Model>, valueColumn: String?, groupColumn: String?, keepsExtremes: Bool) {
        self.rows = rows
        self.valueColumn = valueColumn
        self.groupColumn = groupColumn
        self.keepsExtremes = keepsExtremes
        dependencies = rows.filterColumns.map { $0.union([valueColumn, groupColumn].compactMap { $0?.lowercased() }) }
        carried = [groupColumn, valueColumn].map { $0.map { .column($0.lowercased()) } ?? .null }
        let table = SQL("\(identifier: Model._$table)").text
        let group = groupColumn.map { SQL("\(identifier: $0)").text } ?? "NULL"
        let value = valueColumn.map { SQL("\(identifier: $0)").text }
        let whereClause = rows.predicate.map { "(\($0))" } ?? "1"
        allRowsSQL = "SELECT rowid, \(group), \(value ?? "NULL") FROM \(table) WHERE \(whereClause)"
        someRows = RowIDRead("SELECT rowid, \(group), \(value ?? "NULL") FROM \(table) NOT INDEXED WHERE \(whereClause) AND rowid")
        extremesSQL = value.map { value in
            "SELECT \(group), min(\(value)), max(\(value)) FROM \(table) WHERE \(whereClause) AND \(value) IS NOT NULL GROUP BY 1"
        }
    }

    /// Every member row, in one snapshot, and the journal position it was read at.
    func readAll(_ store: Store) throws -> (rows: [(rowID: Int64, member: AggregateState.Member)], seq: Int64) {
        try store.reading { connection, seq in
            try store.checkSchema(Model.self, connection)
            let rows = try connection.statement(allRowsSQL).map(rows.arguments) { row -> (rowID: Int64, member: AggregateState.Member)? in
                guard case .integer(let rowID) = row.column(0) else { return nil }
                return (rowID, AggregateState.Member(group: row.column(1), value: row.column(2)))
            }
            return (rows, try seq.get())
        }
    }

    /// The rows of `rowIDs` that match now, looked up by rowid whatever indexes the table has.
    func read(_ rowIDs: Set<Int64>, _ store: Store) throws -> [Int64: AggregateState.Member] {
        store.resultsRowReadCount.withLock { $0 += 1 }
        return try store.readingRecentRows { connection in
            var current = [Int64: AggregateState.Member]()
            let read = someRows.text(for: rowIDs)
            _ = try connection.statement(read.sql).map(rows.arguments + [read.rowIDs]) { row -> Void? in
                if case .integer(let rowID) = row.column(0) { current[rowID] = AggregateState.Member(group: row.column(1), value: row.column(2)) }
                return nil
            }
            return current
        }
    }

    /// The minimum and maximum of each of `groups` (one grouped query).
    func extremes(of groups: Set<SQLiteValue>, _ store: Store) throws -> [SQLiteValue: (minimum: SQLiteValue, maximum: SQLiteValue)] {
        guard let sql = extremesSQL, !groups.isEmpty else { return [:] }
        return try store.reading { connection, _ in
            var found: [SQLiteValue: (minimum: SQLiteValue, maximum: SQLiteValue)] = [:]
            _ = try connection.statement(sql).map(rows.arguments) { row -> Void? in
                if groups.contains(row.column(0)) { found[row.column(0)] = (row.column(1), row.column(2)) }
                return nil
            }
            return found
        }
    }
}
