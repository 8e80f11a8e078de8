/// One UNIQUE index of a table (from a UNIQUE constraint, a `CREATE UNIQUE INDEX`, or a primary
/// key that is not the rowid): the terms two rows must share to conflict, and for a partial
/// index the condition a row must meet to be in it.
package struct UniqueKey: Sendable, Equatable {
    /// One term of the index: a column or an expression, compared with a collation.
    package enum Term: Sendable, Equatable {
        case column(String, collation: String)
        case expression(String, collation: String)
    }

    /// The terms, in index order.
    package let terms: [Term]
    /// A partial index's `WHERE` condition, as written.
    package let condition: String?

    /// Whether a change of any column could move a row into conflict (expressions and partial
    /// conditions may read any column), rather than only a change of ``columns``.
    package var readsAnyColumn: Bool {
        condition != nil || terms.contains { if case .expression = $0 { true } else { false } }
    }

    /// The plain columns of the terms.
    package var columns: [String] {
        terms.compactMap { if case .column(let name, _) = $0 { name } else { nil } }
    }

    /// The UNIQUE indexes of `table`.
    package static func all(of table: String, _ connection: Connection) throws -> [UniqueKey] {
        let indexes = try connection.statement("SELECT name, partial FROM pragma_index_list(?) WHERE \"unique\" = 1 ORDER BY name")
            .rows([.text(table)])
        return try indexes.compactMap { row -> UniqueKey? in
            guard case .text(let index) = row[0] else { return nil }
            return try read(index, partial: row[1] == .integer(1), connection)
        }
    }

    private static func read(_ index: String, partial: Bool, _ connection: Connection) throws -> UniqueKey? {
        let keyColumns = try connection.statement("SELECT cid, name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno")
            .rows([.text(index)])
        let hasExpression = keyColumns.contains { $0[0] == .integer(-2) }
        var definition: IndexDefinition?
        if hasExpression || partial {
            let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(index)])
            guard let text = sql?.textValue, let parsed = IndexDefinition(sql: text), parsed.terms.count == keyColumns.count else {
                return coarse(keyColumns)
            }
            definition = parsed
        }
        let terms = keyColumns.enumerated().map { offset, column -> Term in
            let collation = if case .text(let name) = column[2] { name } else { "BINARY" }
            if case .text(let name) = column[1] { return .column(name, collation: collation) }
            return .expression(definition?.terms[offset] ?? "NULL", collation: collation)
        }
        return UniqueKey(terms: terms, condition: definition?.condition)
    }

    /// For an index whose SQL cannot be read: its plain columns only, without its condition. Every
    /// row that can conflict matches (and more, when the index has expressions), so the `AFTER`
    /// trigger's check of which rows are gone keeps the journal exact, at the cost of staging more.
    private static func coarse(_ keyColumns: [[SQLiteValue]]) -> UniqueKey {
        let terms = keyColumns.compactMap { column -> Term? in
            guard case .text(let name) = column[1] else { return nil }
            let collation = if case .text(let collation) = column[2] { collation } else { "BINARY" }
            return .column(name, collation: collation)
        }
        return UniqueKey(terms: terms, condition: terms.count == keyColumns.count ? nil : "1")
    }
}
