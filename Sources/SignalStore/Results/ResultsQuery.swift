import Foundation

/// The query of a ``LiveResults``: its filter and order as SQL on the model's table, and the
/// three reads the result makes (all rows' keys, some rows' keys, some rows' objects). Values
/// are bound, never spliced.
struct ResultsQuery<Model: PersistentModel>: Sendable {
    let predicate: String?
    let arguments: [SQLiteValue]
    let orderBy: String?
    /// The typed orderings' terms, which the live engine reads as they are; `nil` for an SQL
    /// fragment, whose terms are parsed.
    let terms: [ResultsOrdering.Term]?
    /// A window's size: the result keeps the first `limit` rows of the ordering; `nil` keeps
    /// every row.
    let limit: Int?
    /// Whether the filter or order reads another table (a subquery): any commit may then change
    /// the result, so it runs again after each.
    let readsOtherTables: Bool
    /// The columns the filter reads, lowercased; `nil` when unknown (an SQL fragment): then a
    /// change of any column may change membership.
    let filterColumns: Set<String>?
    /// The key every member holds, which routes commits to the result.
    let key: ResultsKey?
    /// The filter, when it is one `column IS value` (see ``JournalMembership``).
    let comparison: JournalMembership.Comparison?
    /// The parents the filter and order read through `@Parent` links, with the columns of the
    /// parent each reads (lowercased, the key's column among them): a commit to such a parent
    /// row reads its children again.
    let parentReads: [ParentJoin: Set<String>]
    /// The links the filter reads through: a change of such a parent may change which of its
    /// children match.
    let filterLinks: Set<ParentJoin>
    /// The model's columns other than its primary key, lowercased: an update of one never moves
    /// a row to another rowid.
    let stableColumns = Set(Model._$columns.filter { !$0.isPrimaryKey }.map { $0.name.lowercased() })

    /// A query from SQL fragments.
    init(predicate: String?, arguments: [SQLiteValue], orderBy: String?, limit: Int? = nil) {
        self.predicate = predicate
        self.arguments = arguments
        self.orderBy = orderBy
        terms = nil
        self.limit = limit.map { max(0, $0) }
        let text = (predicate ?? "") + " " + (orderBy ?? "")
        // The regular expression only when the word may be there: a relationship's results are
        // made by the thousand, and a match costs more than the rest of making one.
        readsOtherTables = text.lowercased().contains("select")
            && text.range(of: #"\bselect\b"#, options: [.regularExpression, .caseInsensitive]) != nil
        filterColumns = nil
        key = nil
        comparison = nil
        parentReads = [:]
        filterLinks = []
    }

    /// A query from a typed filter (`nil`: every row) and typed orderings (the rowid last).
    init(filter: FilterExpression?, orderBy orderings: [ModelOrdering<Model>], limit: Int? = nil) {
        let rendered = filter?.rendered
        predicate = rendered?.text
        arguments = rendered?.arguments ?? []
        orderBy = ModelOrdering.clause(orderings)
        terms = orderings.map(\.term)
        self.limit = limit.map { max(0, $0) }
        readsOtherTables = filter?.readsGrandparents ?? false
        filterColumns = Set((filter?.columns ?? []).map { $0.lowercased() })
        key = filter?.routingKey
        comparison = JournalMembership.Comparison(filter)
        var parentReads = filter?.parentColumns ?? [:]
        filterLinks = Set(parentReads.keys)
        for term in terms ?? [] {
            if let link = term.link { parentReads[link, default: []].insert(term.column) }
        }
        self.parentReads = parentReads.reduce(into: [:]) { reads, read in
            reads[read.key] = Set(read.value.map { $0.lowercased() }).union([read.key.parentColumn.lowercased()])
        }
    }

    /// What a commit's entries tell of the rows it changed: the comparison only when `route`
    /// (``route(_:)``) kept its key, that is when the column compares by a built-in collation.
    func membership(routedBy route: ResultsRouter.Route) -> JournalMembership {
        JournalMembership(filterColumns: filterColumns, comparison: route.key == nil ? nil : comparison, stableColumns: stableColumns)
    }

    /// Where the result listens for commits. A text key routes only when its column compares
    /// by a built-in collation (read from `store`'s schema): a collation of the app's own may
    /// find texts equal that the key's folding does not.
    func route(_ store: Store) -> ResultsRouter.Route {
        var key = key
        if let text = key, text.isText {
            let collation = try? store.reading { connection, _ in ResultsOrdering.Collation(declaredBy: text.column, of: Model._$table, store.schema, connection) }
            if collation == nil { key = nil }
        }
        return ResultsRouter.Route(
            table: Model._$table, key: key, readsOtherTables: readsOtherTables, stableColumns: stableColumns,
            parentTables: Set(parentReads.keys.map { $0.parentTable.lowercased() })
        )
    }

    /// The rows whose parent the entries changed (``ParentChanges``): the children of the parent
    /// rows as they are now, and of the keys parents held before.
    func children(of parents: ParentChanges, _ store: Store) throws -> Set<Int64> {
        guard !parents.isEmpty else { return [] }
        return try store.reading { connection, _ in
            var children = Set<Int64>()
            for (link, rows) in parents.byLink {
                var arguments = [KeyList.of(rowIDs: rows.rowIDs)]
                if !rows.formerKeys.isEmpty, let keys = KeyList.of(rows.formerKeys) { arguments.append(keys) }
                _ = try connection.statement(link.childrenSQL(formerKeys: arguments.count > 1)).map(arguments) { row -> Void? in
                    if case .integer(let rowID) = row.column(0) { children.insert(rowID) }
                    return nil
                }
            }
            return children
        }
    }

    /// A whole result: rowids and sort keys in order, the ordering they were placed by (`nil`
    /// when the query re-runs), and the journal position of the snapshot they came from.
    struct Rows {
        let rows: [(rowID: Int64, key: [SQLiteValue])]
        let ordering: ResultsOrdering?
        let seq: Int64
        /// Whether `rows` are every matching row: always without a limit; for a window, when it
        /// is not full.
        var isComplete = true
    }

    private var table: String { SQL("\(identifier: Model._$table)").text }

    private var whereClause: String {
        predicate.map { " WHERE (\($0))" } ?? ""
    }

    /// Runs the whole query in one snapshot.
    func runAll(_ store: Store) throws -> Rows {
        try store.reading { connection, seq in
            try store.checkSchema(Model.self, connection)
            let ordering = ordering(store, connection)
            let keys = ordering.map { $0.terms.isEmpty ? "" : ", " + $0.keyColumnsSQL } ?? ""
            let sql = "SELECT rowid\(keys) FROM \(table)\(whereClause) ORDER BY \(order)\(limit.map { " LIMIT \($0)" } ?? "")"
            let rows = try connection.statement(sql).map(arguments) { row -> (rowID: Int64, key: [SQLiteValue])? in
                guard case .integer(let rowID) = row.column(0) else { return nil }
                return (rowID, (1..<row.columnCount).map(row.column))
            }
            return Rows(rows: rows, ordering: ordering, seq: try seq.get(), isComplete: limit.map { rows.count < $0 } ?? true)
        }
    }

    /// How the rows are placed: the typed terms, or the fragment's when it is a list of the
    /// model's columns; `nil` when the query re-runs instead.
    func ordering(_ store: Store, _ connection: Connection) -> ResultsOrdering? {
        if readsOtherTables { return nil }
        if let terms { return ResultsOrdering.resolving(terms, table: Model._$table, store.schema, connection) }
        return ResultsOrdering.parse(orderBy, table: Model._$table, columns: Model._$columnNames, store.schema, connection)
    }

    /// The `ORDER BY` terms, ending with the rowid.
    private var order: String { orderBy.map { "\($0), rowid" } ?? "rowid" }

    /// The first `count` matching rows of the ordering other than `excluded` (a window's rows),
    /// with their sort keys: what refills a window that rows left.
    func rows(besides excluded: [Int64], count: Int, ordering: ResultsOrdering, _ connection: Connection) throws -> [Int64: [SQLiteValue]] {
        let keys = ordering.terms.isEmpty ? "" : ", " + ordering.keyColumnsSQL
        let condition = (predicate.map { "(\($0)) AND " } ?? "") + "rowid NOT " + KeyList.inBoundList
        let sql = "SELECT rowid\(keys) FROM \(table) WHERE \(condition) ORDER BY \(order) LIMIT \(count)"
        return try Self.keyed(connection.statement(sql), arguments + [KeyList.of(rowIDs: excluded)])
    }

    /// The rows of `rowIDs` that match the filter now, with their sort keys.
    func run(rows rowIDs: Set<Int64>, ordering: ResultsOrdering, _ store: Store) throws -> [Int64: [SQLiteValue]] {
        try store.readingRecentRows { connection in try run(rows: rowIDs, ordering: ordering, store, connection) }
    }

    /// ``run(rows:ordering:_:)`` on a connection already reading.
    func run(rows rowIDs: Set<Int64>, ordering: ResultsOrdering, _ store: Store, _ connection: Connection) throws -> [Int64: [SQLiteValue]] {
        store.resultsRowReadCount.withLock { $0 += 1 }
        let read = RowIDRead.text(rowsRead(ordering), for: rowIDs)
        return try Self.keyed(connection.statement(read.sql), arguments + [read.rowIDs])
    }

    /// The rows a `SELECT rowid, key columns…` returns, by rowid.
    private static func keyed(_ statement: Statement, _ arguments: [SQLiteValue]) throws -> [Int64: [SQLiteValue]] {
        var rows: [Int64: [SQLiteValue]] = [:]
        _ = try statement.map(arguments) { row -> Void? in
            if case .integer(let rowID) = row.column(0) { rows[rowID] = (1..<row.columnCount).map(row.column) }
            return nil
        }
        return rows
    }

    /// The read of some rows by rowid, up to the rowid's condition (``RowIDRead``): the
    /// filter's arguments come first, then the rowids (one bound as itself, several as a list).
    /// NOT INDEXED: the rows are looked up by rowid, even where an index of the user's could
    /// answer the filter and order (SQLite then scanned that index instead).
    func rowsRead(_ ordering: ResultsOrdering) -> String {
        let keys = ordering.terms.isEmpty ? "" : ", " + ordering.keyColumnsSQL
        let condition = (predicate.map { "(\($0)) AND " } ?? "") + "rowid"
        return "SELECT rowid\(keys) FROM \(table) NOT INDEXED WHERE \(condition)"
    }

    /// The live instances of `rowIDs` (those that still exist), identity kept.
    func objects(rowIDs: [Int64], _ store: Store) throws -> [Model] {
        try store.query(Model.self, where: "rowid " + KeyList.inBoundList, arguments: [KeyList.of(rowIDs: rowIDs)], orderBy: nil)
    }

    /// The live instances of every row the filter matches now, in no order: most of a result
    /// read at once (its first read) in one scan. Looking 100,000 rowids up one by one from a
    /// bound list cost several times the scan.
    func matchingObjects(_ store: Store) throws -> [Model] {
        try store.query(Model.self, where: predicate, arguments: arguments, orderBy: nil)
    }
}
