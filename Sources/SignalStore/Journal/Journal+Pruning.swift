extension Journal {
    /// Deletes the entries up to and including `seq` (at most the highest seq: entries not yet
    /// written are never marked as pruned) and moves the prune horizon. Call inside a write
    /// transaction.
    /// - Returns: The number of entries deleted.
    static func prune(through seq: Int64, _ connection: Connection) throws -> Int {
        let seq = min(seq, try highestSeq(connection))
        try connection.statement("DELETE FROM \(changes) WHERE seq <= ?").run([.integer(seq)])
        let deleted = connection.changes
        try connection.statement(
            "INSERT INTO \(state) (key, value) VALUES ('pruned_through', ?) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)"
        ).run([.integer(seq)])
        return deleted
    }
}
