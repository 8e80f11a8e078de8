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
    package static func entries(
        through seq: Int64, limit: Int, table: String? = nil, operation: Change.Operation? = nil, _ connection: Connection
    ) throws -> [Change] {
        var sql = "SELECT \(selectColumns) FROM \(changes) WHERE seq <= ?"
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

    /// The last seq after `seq`, without reading the entries (one lookup of the primary key,
    /// whatever the size of the commit); `nil` when there are none.
    static func commitNotice(after seq: Int64, _ connection: Connection) throws -> CommitNotice? {
        guard let last = try connection.scalar("SELECT max(seq) FROM \(changes) WHERE seq > ?", [.integer(seq)])?.integerValue else { return nil }
        return CommitNotice(seq: last)
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
