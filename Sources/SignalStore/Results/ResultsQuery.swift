import Foundation

/// The query of a ``LiveResults``: its filter and order as SQL on the model's table, and the
/// three reads the result makes (all rows' keys, some rows' keys, some rows' objects). Values
/// are bound, never spliced.
struct ResultsQuery<Model: PersistentModel>: Sendable {
    let predicate: String?
    let arguments: [SQLiteValue]
    let orderBy: String?
    /// Whether the filter or order reads another table (a subquery): any commit may then change
    /// the result, so it runs again after each.
    let readsOtherTables: Bool

    init(predicate: String?, arguments: [SQLiteValue], orderBy: String?) {
        self.predicate = predicate
        self.arguments = arguments
        self.orderBy = orderBy
        let text = (predicate ?? "") + " " + (orderBy ?? "")
        // The regular expression only when the word may be there: a relationship's results are
        // made by the thousand, and a match costs more than the rest of making one.
        readsOtherTables = text.lowercased().contains("select")
            && text.range(of: #"\bselect\b"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// A whole result: rowids and sort keys in order, the ordering they were placed by (`nil`
    /// when the query re-runs), and the journal position of the snapshot they came from.
    struct Rows {
        let rows: [(rowID: Int64, key: [SQLiteValue])]
        let ordering: ResultsOrdering?
        let seq: Int64
    }

    private var table: String { SQL("\(identifier: Model._$table)").text }

    private var whereClause: String {
        predicate.map { " WHERE (\($0))" } ?? ""
    }

    /// Runs the whole query in one snapshot.
    func runAll(_ store: Store) throws -> Rows {
        try store.reading { connection, seq in
            try store.checkSchema(Model.self, connection)
            let ordering = readsOtherTables ? nil : ResultsOrdering.parse(orderBy, table: Model._$table, columns: Model._$columnNames, connection)
            let keys = ordering.map { $0.terms.isEmpty ? "" : ", " + $0.keyColumnsSQL } ?? ""
            let order = orderBy.map { "\($0), rowid" } ?? "rowid"
            let sql = "SELECT rowid\(keys) FROM \(table)\(whereClause) ORDER BY \(order)"
            let rows = try connection.statement(sql).map(arguments) { row -> (rowID: Int64, key: [SQLiteValue])? in
                guard case .integer(let rowID) = row.column(0) else { return nil }
                return (rowID, (1..<row.columnCount).map(row.column))
            }
            return Rows(rows: rows, ordering: ordering, seq: try seq.get())
        }
    }

    /// The rows of `rowIDs` that match the filter now, with their sort keys.
    func run(rows rowIDs: Set<Int64>, ordering: ResultsOrdering, _ store: Store) throws -> [Int64: [SQLiteValue]] {
        let keys = ordering.terms.isEmpty ? "" : ", " + ordering.keyColumnsSQL
        let condition = (predicate.map { "(\($0)) AND " } ?? "") + "rowid " + KeyList.inBoundList
        let sql = "SELECT rowid\(keys) FROM \(table) WHERE \(condition)"
        return try store.reading { connection, _ in
            var current: [Int64: [SQLiteValue]] = [:]
            _ = try connection.statement(sql).map(arguments + [KeyList.of(rowIDs: rowIDs)]) { row -> Void? in
                if case .integer(let rowID) = row.column(0) { current[rowID] = (1..<row.columnCount).map(row.column) }
                return nil
            }
            return current
        }
    }

    /// The live instances of `rowIDs` (those that still exist), identity kept.
    func objects(rowIDs: [Int64], _ store: Store) throws -> [Model] {
        try store.query(Model.self, where: "rowid " + KeyList.inBoundList, arguments: [KeyList.of(rowIDs: rowIDs)], orderBy: nil)
    }
}
