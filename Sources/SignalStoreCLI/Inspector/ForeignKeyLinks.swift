#if SIGNALSTORE_INSPECTOR
import SignalStore

/// A table's foreign keys as the inspector follows them: a value in a referencing column links
/// to the row it refers to (``parentPath(column:value:)``), and a row page lists the rows that
/// refer to it (``children(of:in:)``). Only single-column keys are followed; the schema view
/// lists every key.
struct ForeignKeyLinks {
    /// For each referencing column (lowercased): the parent table and the column it refers to
    /// (`nil`: the parent's primary key).
    private let parents: [String: (table: String, column: String?)]

    init(_ rules: TableRules) {
        var parents: [String: (table: String, column: String?)] = [:]
        for key in rules.foreignKeys where key.columns.count == 1 {
            parents[key.columns[0].lowercased()] = (key.parent, key.referenced.first)
        }
        self.parents = parents
    }

    /// Whether `column` refers to another table's rows.
    func refers(_ column: String) -> Bool {
        parents[column.lowercased()] != nil
    }

    /// The page of the row that `value` in `column` refers to; `nil` when the column refers to
    /// nothing or the value is NULL or a blob.
    func parentPath(column: String, value: SQLiteValue) -> String? {
        guard let parent = parents[column.lowercased()], let typed = CellValue.typed(value) else { return nil }
        return "/find/" + PathSegment.encode(parent.table)
            + QueryString([("column", parent.column ?? ""), ("value", typed)]).encoded
    }

    /// One kind of row that may refer to a row of a table: `column` of `table`, referring to
    /// `referenced` (`nil`: the primary key).
    struct Child {
        let table: String
        let column: String
        let referenced: String?
    }

    /// The single-column foreign keys of every table that refer to `parent`.
    static func children(of parent: String, in store: Store) throws(CLIError) -> [Child] {
        var children: [Child] = []
        for name in try SchemaReader.tableNames(store) {
            let rules = try SchemaReader.rules(name, in: store)
            for key in rules.foreignKeys where key.columns.count == 1 && key.parent.lowercased() == parent.lowercased() {
                children.append(Child(table: name, column: key.columns[0], referenced: key.referenced.first))
            }
        }
        return children
    }
}
#endif
