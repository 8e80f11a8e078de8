extension Journal {
    /// The highest seq ever written (by any connection); 0 if none. Pruning does not lower it.
    package static func highestSeq(_ connection: Connection) throws -> Int64 {
        let rows = try connection.statement("SELECT seq FROM sqlite_sequence WHERE name = ?").rows([.text(changes)])
        guard case .integer(let seq)? = rows.first?.first else { return 0 }
        return seq
    }

    /// The prune horizon: entries up to this seq were deleted.
    static func prunedThrough(_ connection: Connection) throws -> Int64 {
        let rows = try connection.statement("SELECT value FROM \(state) WHERE key = 'pruned_through'").rows()
        guard case .integer(let seq)? = rows.first?.first else { return 0 }
        return seq
    }

    /// Built once: every write reads its entries back with it.
    private static let entriesAfterSQL = "SELECT \(selectColumns) FROM \(changes) WHERE seq > ? ORDER BY seq LIMIT ?"

    /// The entries after `seq`, in order, at most `limit` of them.
    package static func entries(after seq: Int64, limit: Int? = nil, _ connection: Connection) throws -> [Change] {
        try connection.statement(entriesAfterSQL)
            .rows([.integer(seq), .integer(Int64(limit ?? -1))])
            .compactMap(Change.init(row:))
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
        guard case .integer(let count)? = try connection.statement("SELECT count(*) FROM \(changes)").rows().first?.first else { return 0 }
        return count
    }
}
