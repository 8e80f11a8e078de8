import ArgumentParser
import SignalStore

/// Reads and addresses rows of a user table. Table and column names come from the schema and
/// are quoted; ids and values are always bound.
struct RowAccess {
    let table: TableSchema

    private var columnList: SQL {
        "\(identifiers: table.columns.map(\.name))"
    }

    /// The row whose key is `id`, as (column, value) pairs in schema order; `nil` if none.
    func row(_ id: SQLiteValue, _ connection: Connection) throws -> [(String, SQLiteValue)]? {
        let rows = try connection.rows(RowSQL.read(columnList, from: table.name, at: .key(id, in: table)))
        return rows.first.map { Array(zip(table.columns.map(\.name), $0)) }
    }

    /// Every row in key order, at most `limit`, in one read (for `watch`, which pairs them with
    /// the feed position of the same snapshot).
    func rows(limit: Int?, _ connection: Connection) throws -> [[(String, SQLiteValue)]] {
        try page(after: nil, offset: 0, limit: limit ?? -1, connection).rows
    }

    /// One page of rows in key order: at most `limit` rows whose key is after `key` (from the
    /// first row when `nil`), with the key of the last one. Tables without a single key are
    /// paged by offset.
    func page(after key: SQLiteValue?, offset: Int, limit: Int, _ connection: Connection) throws -> (rows: [[(String, SQLiteValue)]], lastKey: SQLiteValue?) {
        let keyed = !(table.isWithoutRowID && table.keyColumn == nil)
        let keyExpression: SQL = keyed ? table.keyExpression : "1"
        let after: SQL = if keyed, let key { " WHERE \(keyExpression) > \(value: key)" } else { "" }
        let order = keyed ? keyExpression : columnList
        let rows = try connection.rows(
            "SELECT \(keyExpression), \(columnList) FROM \(identifier: table.name)\(after) ORDER BY \(order) LIMIT \(limit) OFFSET \(keyed ? 0 : offset)")
        return (rows.map { Array(zip(table.columns.map(\.name), $0.dropFirst())) }, rows.last?.first)
    }

    /// The rowid of the row whose key is `id`; `nil` if none or the table has no rowid.
    func rowID(of id: SQLiteValue, _ connection: Connection) throws -> Int64? {
        guard !table.isWithoutRowID else { return nil }
        return try connection.scalar(RowSQL.read("rowid", from: table.name, at: .key(id, in: table)))?.integerValue
    }

    /// The error for an id that matches no row.
    func noRow(_ id: SQLiteValue) -> CLIError {
        CLIError("table \(table.name) has no row with id \(display(ValueFormat.human(id))); list the rows with `signalstore get \(table.name)`")
    }
}

/// `COLUMN=VALUE` arguments, split at the first `=`.
struct Assignment {
    let column: String
    let value: String

    /// Parses the arguments; a usage error when one has no `=`, no column, or a column twice.
    static func parse(_ arguments: [String]) throws -> [Assignment] {
        var seen = Set<String>()
        return try arguments.map { argument in
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("\(display(argument)) is not an assignment; write COLUMN=VALUE, e.g. purchase_num=3")
            }
            let column = String(argument[..<equals])
            guard seen.insert(column.lowercased()).inserted else {
                throw ValidationError("column \(display(column)) is assigned twice; give each column once")
            }
            return Assignment(column: column, value: String(argument[argument.index(after: equals)...]))
        }
    }

    /// The assignments resolved against `table`: each column checked, each value parsed.
    static func resolve(_ assignments: [Assignment], in table: TableSchema) throws(CLIError) -> [(ColumnSchema, SQLiteValue)] {
        var resolved: [(ColumnSchema, SQLiteValue)] = []
        for assignment in assignments {
            let column = try table.column(assignment.column)
            resolved.append((column, try ValueParser.parse(assignment.value, for: column, in: table.name)))
        }
        return resolved
    }
}
