extension Journal {
    /// The entries each durable consumer has acknowledged, in name order. An older database
    /// opened read-only, which has no consumers table yet, has none.
    package static func consumers(_ connection: Connection) throws -> [FeedConsumer] {
        guard try connection.tableExists(consumers) else { return [] }
        return try connection.statement("SELECT name, acknowledged_seq FROM \(consumers) ORDER BY name").rows().compactMap { row in
            guard case .text(let name) = row[0], case .integer(let seq) = row[1] else { return nil }
            return FeedConsumer(name: name, acknowledgedSeq: seq)
        }
    }

    /// Registers `consumer` if it is new, acknowledged through the prune horizon (so it gets
    /// every entry still kept); returns the seq it has acknowledged. Call in a write transaction.
    package static func register(consumer: String, _ connection: Connection) throws -> Int64 {
        try connection.statement("INSERT INTO \(consumers) (name, acknowledged_seq, registered_at) VALUES (?, ?, \(now)) ON CONFLICT(name) DO NOTHING")
            .run([.text(consumer), .integer(try prunedThrough(connection))])
        guard let seq = try connection.scalar("SELECT acknowledged_seq FROM \(consumers) WHERE name = ?", [.text(consumer)])?.integerValue else {
            return 0
        }
        return seq
    }

    /// Moves `consumer`'s acknowledgment forward to `seq` (never back). Call in a write
    /// transaction.
    /// - Throws: ``StoreError/unknownConsumer(_:)``, or ``StoreError/invalidArgument(_:)`` past the
    ///   last entry.
    package static func acknowledge(through seq: Int64, consumer: String, _ connection: Connection) throws {
        let highest = try highestSeq(connection)
        guard seq <= highest else {
            throw StoreError.invalidArgument("cannot acknowledge seq \(seq) for consumer '\(consumer)': the last entry is seq \(highest); acknowledge entries it has received")
        }
        try connection.statement("UPDATE \(consumers) SET acknowledged_seq = max(acknowledged_seq, ?), acknowledged_at = \(now) WHERE name = ?")
            .run([.integer(seq), .text(consumer)])
        guard connection.changes > 0 else { throw StoreError.unknownConsumer(consumer) }
    }

    /// Removes `consumer`; its unacknowledged entries no longer hold back pruning.
    static func remove(consumer: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(consumers) WHERE name = ?").run([.text(consumer)])
        guard connection.changes > 0 else { throw StoreError.unknownConsumer(consumer) }
    }
}

/// A durable named consumer of the change feed and how far it has acknowledged it.
public struct FeedConsumer: Sendable, Equatable {
    /// The consumer's name, as given to ``Store/changes(consumer:)``.
    public let name: String
    /// The last seq it acknowledged; it resumes after it.
    public let acknowledgedSeq: Int64
}
