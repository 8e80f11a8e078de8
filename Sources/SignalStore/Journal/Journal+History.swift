extension Journal {
    /// Every entry kept for one row of `table`, oldest first, following its key back through
    /// changes of an `INTEGER PRIMARY KEY` (`keyColumn`): the entries made under an earlier
    /// key, up to and including the change that gave the row its next key.
    ///
    /// A key that a row left and a later row took is not followed back past the key change:
    /// the row's history starts where it took the key (or was inserted with it).
    static func history(table: String, rowID: Int64, keyColumn: String?, _ connection: Connection) throws -> [Change] {
        let entriesOfKey = try connection.statement("""
            SELECT \(selectColumns) FROM \(changes)
            WHERE table_name = ? AND row_id = ? AND seq > ? AND seq <= ? ORDER BY seq
            """)
        var entries: [Change] = []
        var key = rowID
        var through = Int64.max
        while true {
            let keyChange = try keyColumn.flatMap { column in
                try latestKeyChange(into: key, before: through, table: table, column: column, connection)
            }
            let after = keyChange?.seq ?? 0
            entries.insert(contentsOf: try entriesOfKey.rows([.text(table), .integer(key), .integer(after), .integer(through)]).compactMap(Change.init(row:)), at: 0)
            guard let keyChange else { return entries }
            (key, through) = (keyChange.previousKey, keyChange.seq)
        }
    }

    /// The latest change of `column` (a rowid alias) to `key` before `seq`: its seq and the key
    /// the row had before it.
    private static func latestKeyChange(into key: Int64, before seq: Int64, table: String, column: String, _ connection: Connection) throws -> (seq: Int64, previousKey: Int64)? {
        let row = try connection.statement("""
            SELECT seq, row_id FROM \(changes)
            WHERE table_name = ? AND operation = 'update' AND column_name = ? AND new_value = ? AND seq < ?
            ORDER BY seq DESC LIMIT 1
            """).rows([.text(table), .text(column), .integer(key), .integer(seq)]).first
        guard let row, let seq = row[0].integerValue, let previousKey = row[1].integerValue else { return nil }
        return (seq, previousKey)
    }

    /// The entries from `range`, in seq order; fails when some were pruned.
    /// - Throws: ``StoreError/changeFeedGap(since:prunedThrough:)``.
    static func entries(in range: ClosedRange<Int64>, _ connection: Connection) throws -> [Change] {
        let pruned = try prunedThrough(connection)
        if range.lowerBound <= pruned { throw StoreError.changeFeedGap(since: range.lowerBound - 1, prunedThrough: pruned) }
        return try connection.statement("SELECT \(selectColumns) FROM \(changes) WHERE seq BETWEEN ? AND ? ORDER BY seq")
            .rows([.integer(range.lowerBound), .integer(range.upperBound)])
            .compactMap(Change.init(row:))
    }
}
