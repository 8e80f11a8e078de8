extension Journal {
    /// Deletes the entries up to and including `seq` (at most the highest seq: entries not yet
    /// written are never marked as pruned) and moves the prune horizon. Call inside a write
    /// transaction.
    /// Deletes in batches of ``pruneBatch`` entries, calling `progress` with the number deleted so
    /// far after each, so a tool can show the progress of a large prune (still one transaction).
    /// - Returns: The number of entries deleted.
    static func prune(through seq: Int64, _ connection: Connection, progress: (Int) -> Void = { _ in }) throws -> Int {
        let seq = min(seq, try highestSeq(connection))
        if let behind = try consumers(connection).filter({ $0.acknowledgedSeq < seq }).min(by: { $0.acknowledgedSeq < $1.acknowledgedSeq }) {
            throw StoreError.consumerBehind(consumer: behind.name, acknowledgedSeq: behind.acknowledgedSeq)
        }
        var deleted = 0
        var from = try prunedThrough(connection)
        while from < seq {
            // The batch ends at the pruneBatch-th entry kept after `from` (seqs may have gaps).
            let end = try connection.scalar("SELECT seq FROM \(changes) WHERE seq > ? ORDER BY seq LIMIT 1 OFFSET ?", [.integer(from), .integer(pruneBatch - 1)])
            let to: Int64
            if case .integer(let batchEnd)? = end { to = min(seq, batchEnd) } else { to = seq }
            try connection.statement("DELETE FROM \(changes) WHERE seq > ? AND seq <= ?").run([.integer(from), .integer(to)])
            deleted += connection.changes
            progress(deleted)
            from = to
        }
        try connection.statement(
            "INSERT INTO \(state) (key, value) VALUES ('pruned_through', ?) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)"
        ).run([.integer(seq)])
        return deleted
    }

    /// The entries one batch of a prune deletes.
    static let pruneBatch: Int64 = 50_000
}
