/// Entries of the journal written one soon after another, counted by table and operation: what
/// ``Journal/run(before:closeness:window:table:operation:_:)`` finds.
package struct JournalRun: Sendable {
    /// The run's first seq.
    package let first: Int64
    /// How many entries of each table and operation the run holds, in no particular order.
    package let counts: [(table: String, operation: Change.Operation, count: Int)]
    /// Whether the run may go on before ``first``: it fills the whole window looked at.
    package let mayGoOn: Bool
}

extension Journal {
    /// The highest seq ever written (by any connection); 0 if none. Pruning does not lower it.
    package static func highestSeq(_ connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(changes)])?.integerValue ?? 0
    }

    /// The prune horizon: entries up to this seq were deleted.
    static func prunedThrough(_ connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT value FROM \(state) WHERE key = 'pruned_through'")?.integerValue ?? 0
    }

    /// Built once: every write reads its entries back with it.
    private static let entriesAfterSQL = "SELECT \(selectColumns) FROM \(changes) WHERE seq > ? ORDER BY seq LIMIT ?"

    /// The entries after `seq`, in order, at most `limit` of them.
    package static func entries(after seq: Int64, limit: Int? = nil, _ connection: Connection) throws -> [Change] {
        try connection.statement(entriesAfterSQL).map([.integer(seq), .integer(Int64(limit ?? -1))]) { row in
            Change(column: row.column)
        }
    }

    /// The newest entries at or before `seq`, newest first, at most `limit` of them, only of
    /// `table` and of `operation` when they are given: a page of the feed read backwards, for a
    /// viewer that shows the latest entries first.
    /// - Parameter valuesCutAt: When given, SQLite cuts every text value (and every whole row's
    ///   text values) to this many characters and every blob to this many bytes before the
    ///   entries are read, so a page of entries holding megabyte values costs no more than one
    ///   of short values. For display only: such entries do not hold the values.
    package static func entries(
        through seq: Int64, limit: Int, table: String? = nil, operation: Change.Operation? = nil, valuesCutAt: Int? = nil, _ connection: Connection
    ) throws -> [Change] {
        var sql = "SELECT \(valuesCutAt.map(selectColumns(cutAt:)) ?? selectColumns) FROM \(changes) WHERE seq <= ?"
        var arguments: [SQLiteValue] = [.integer(seq)]
        if let table {
            sql += " AND table_name = ?"
            arguments.append(.text(table))
        }
        if let operation {
            sql += " AND operation = ?"
            arguments.append(.text(operation.rawValue))
        }
        return try connection.statement(sql + " ORDER BY seq DESC LIMIT ?")
            .rows(arguments + [.integer(Int64(limit))])
            .compactMap(Change.init(row:))
    }

    /// ``selectColumns`` with the old and new values cut at `limit` characters of text, bytes
    /// of a blob (an update's values), or characters of each text value and hex digits of each
    /// blob of a whole row (an insert's or delete's JSON, rebuilt only when it is longer).
    private static func selectColumns(cutAt limit: Int) -> String {
        func cutValue(_ value: String) -> String {
            "CASE WHEN length(\(value)) > \(limit) THEN substr(\(value), 1, \(limit)) ELSE \(value) END"
        }
        func cutRow(_ row: String) -> String {
            let blob = #"json_extract(value, '$."$blob"')"#
            return """
                CASE WHEN length(\(row)) <= \(limit) THEN \(row) ELSE (SELECT json_group_object(key, CASE \
                WHEN type = 'text' AND length(value) > \(limit) THEN substr(value, 1, \(limit)) \
                WHEN type = 'object' AND length(\(blob)) > \(2 * limit) THEN json_object('$blob', substr(\(blob), 1, \(2 * limit))) \
                WHEN type IN ('object', 'array') THEN json(value) WHEN type = 'real' THEN json(quote(value)) ELSE value END) \
                FROM json_each(\(row))) END
                """
        }
        func cut(_ column: String) -> String {
            "CASE WHEN operation = 'update' THEN \(cutValue(column)) ELSE \(cutRow(column)) END"
        }
        return "seq, table_name, row_id, operation, column_name, \(cut("old_value")), \(cut("new_value")), timestamp"
    }

    /// The entries before `seq` that go on a run ending at `seq`: going back from it, each
    /// written at most `closeness` seconds before the next, only of `table` and `operation` when
    /// given, looking at most `window` seqs back. Computed by SQLite (a window function), so a
    /// run of any length costs no values read and no rows handed over; `nil` when the entry
    /// before `seq` does not go on the run.
    package static func run(
        before seq: Int64, closeness: Double, window: Int64, table: String? = nil, operation: Change.Operation? = nil, _ connection: Connection
    ) throws -> JournalRun? {
        var filter = ""
        var filterArguments: [SQLiteValue] = []
        if let table {
            filter += " AND table_name = ?"
            filterArguments.append(.text(table))
        }
        if let operation {
            filter += " AND operation = ?"
            filterArguments.append(.text(operation.rawValue))
        }
        // The newest entry, going back, written more than `closeness` before the one after it:
        // the run starts after it. Looked for in a short stretch first, then longer ones: most
        // runs are short, and the window function reads its whole stretch.
        let breakSQL = """
            SELECT seq FROM (SELECT seq, lag(timestamp) OVER (ORDER BY seq DESC) - timestamp AS gap \
            FROM \(changes) WHERE seq <= ? AND seq > ?\(filter)) WHERE gap > ? ORDER BY seq DESC LIMIT 1
            """
        var breakSeq: Int64?
        for stretch in [min(1_000, window), min(30_000, window), window] {
            let range: [SQLiteValue] = [.integer(seq), .integer(seq - stretch)]
            if let found = try connection.scalar(breakSQL, range + filterArguments + [.real(closeness)])?.integerValue {
                breakSeq = found
                break
            }
            if seq - stretch <= 0 { break }
        }
        let countSQL = "SELECT table_name, operation, count(*), min(seq) FROM \(changes) WHERE seq > ? AND seq < ?\(filter) GROUP BY table_name, operation"
        let rows = try connection.statement(countSQL).rows([.integer(breakSeq ?? (seq - window)), .integer(seq)] + filterArguments)
        let counts = rows.compactMap { row -> (table: String, operation: Change.Operation, count: Int)? in
            guard let name = row[0].textValue, let operation = row[1].textValue.flatMap(Change.Operation.init(rawValue:)),
                  let count = row[2].integerValue else { return nil }
            return (name, operation, Int(count))
        }
        guard let first = rows.compactMap({ $0[3].integerValue }).min() else { return nil }
        return JournalRun(first: first, counts: counts, mayGoOn: breakSeq == nil && seq - window > 0)
    }

    /// The last seq after `seq`, without reading the entries (one lookup of the primary key,
    /// whatever the size of the commit); `nil` when there are none.
    static func lastSeq(after seq: Int64, _ connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT max(seq) FROM \(changes) WHERE seq > ?", [.integer(seq)])?.integerValue
    }

    /// The entries after `seq`, failing if some of them were pruned.
    /// - Throws: ``StoreError/changeFeedGap(since:prunedThrough:)``.
    package static func entriesWithoutGap(after seq: Int64, limit: Int? = nil, _ connection: Connection) throws -> [Change] {
        let pruned = try prunedThrough(connection)
        if seq < pruned { throw StoreError.changeFeedGap(since: seq, prunedThrough: pruned) }
        return try entries(after: seq, limit: limit, connection)
    }

    /// The number of entries kept.
    static func entryCount(_ connection: Connection) throws -> Int64 {
        guard let count = try connection.scalar("SELECT count(*) FROM \(changes)")?.integerValue else { return 0 }
        return count
    }
}
