#if SIGNALSTORE_SYNC
import PostgresNIO

/// How an upload's entries go into the log, and what comes back when the server refuses some.
extension ServerLog {
    /// What an upload did.
    struct Upload {
        /// The highest `origin_seq` the server now holds (or refused) from the origin.
        var stored: Int64
        /// How many entries went into the log.
        var count: Int
        /// The entries the server refused (scopes only), in upload order.
        var refused: [Refusal]
    }

    /// An entry the server refused: its outbox seq, and why.
    struct Refusal: Sendable, Equatable {
        var originSeq: Int64
        var reason: String
    }

    /// Appends `entries` at positions from `next` in one statement.
    func insert(_ entries: [SyncEntry], origin: String, at next: Int64, _ connection: PostgresConnection) async throws {
        let positions = (0..<Int64(entries.count)).map { next + $0 }
        try await connection.query("""
            INSERT INTO \(unescaped: schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload)
            SELECT p, \(origin), s, h, t, k, o, NULLIF(c, ''), NULLIF(v, '')
            FROM unnest(\(positions)::bigint[], \(entries.map(\.originSeq))::bigint[], \(entries.map(\.clock.rawValue))::bigint[],
                        \(entries.map(\.table))::text[], \(entries.map(\.key))::text[], \(entries.map(\.operation.rawValue))::text[],
                        \(entries.map { $0.column ?? "" })::text[], \(entries.map { $0.payload ?? "" })::text[])
                 AS u(p, s, h, t, k, o, c, v)
            """, logger: logger)
    }

    /// Appends `entries` from position `next`, leaving out those the server refuses: the batch
    /// in one statement, and only if the server refuses one, entry by entry, each in a
    /// savepoint. Each refusal is recorded in the server's `refusals` table, where this
    /// replica finds it again after a crash.
    func insertRefusingSome(_ entries: [SyncEntry], origin: String, at next: Int64, _ connection: PostgresConnection) async throws -> [Refusal] {
        try await connection.query("SAVEPOINT batch", logger: logger)
        do {
            try await insert(entries, origin: origin, at: next, connection)
            try await connection.query("RELEASE SAVEPOINT batch", logger: logger)
            return []
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == ScopedServer.refusalState {
            try await connection.query("ROLLBACK TO SAVEPOINT batch", logger: logger)
        }
        var refused: [Refusal] = []
        var position = next
        for entry in entries {
            try await connection.query("SAVEPOINT entry", logger: logger)
            do {
                try await insert([entry], origin: origin, at: position, connection)
                try await connection.query("RELEASE SAVEPOINT entry", logger: logger)
                position += 1
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == ScopedServer.refusalState {
                try await connection.query("ROLLBACK TO SAVEPOINT entry", logger: logger)
                refused.append(Refusal(originSeq: entry.originSeq, reason: error.serverInfo?[.message] ?? "refused by the server"))
            }
        }
        for refusal in refused {
            try await connection.query("""
                INSERT INTO \(unescaped: schema).refusals (origin, origin_seq, reason) VALUES (\(origin), \(refusal.originSeq), \(refusal.reason))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        return refused
    }
}
#endif
