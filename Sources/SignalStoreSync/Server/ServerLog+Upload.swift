#if SIGNALSTORE_SYNC
import PostgresNIO
import SignalStore

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

    /// Appends `entries` at positions from `next` in one statement. The entries go as one
    /// JSON text (``uploadText(_:)``) that the server takes apart, not as eight bound arrays:
    /// postgres-nio encodes an array element by element, which took 29 % of the sender's CPU
    /// for a 50,000-row transaction in a debug build.
    func insert(_ entries: [SyncEntry], origin: String, at next: Int64, _ connection: PostgresConnection) async throws {
        try await connection.query("""
            INSERT INTO \(unescaped: schema).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload)
            SELECT \(next) + u.n - 1, \(origin), (u.e->>0)::bigint, (u.e->>1)::bigint, u.e->>2, u.e->>3, u.e->>4, u.e->>5, u.e->>6
            FROM jsonb_array_elements(\(Self.uploadText(entries))::jsonb) WITH ORDINALITY AS u(e, n)
            """, logger: logger)
    }

    /// `entries` as one JSON array, each entry an array of its outbox seq, stamp, table, key,
    /// operation, column and payload (`null` for none). Every text is a JSON string, so any
    /// character survives; the payloads hold no NUL (their values are JSON-escaped already),
    /// which `jsonb` would refuse.
    static func uploadText(_ entries: [SyncEntry]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(entries.reduce(2) { $0 + 80 + $1.key.utf8.count + ($1.payload?.utf8.count ?? 0) * 5 / 4 })
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: "[\(entry.originSeq),\(entry.clock.rawValue)".utf8)
            for value in [entry.table, entry.key, entry.operation.rawValue, entry.column, entry.payload] {
                bytes.append(UInt8(ascii: ","))
                if let value { JSONString.append(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
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
