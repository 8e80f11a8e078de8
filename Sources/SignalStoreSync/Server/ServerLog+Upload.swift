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
        /// The entries the server refused, in upload order.
        var refused: [Refusal]
    }

    /// An entry the server refused: its outbox seq, and why.
    struct Refusal: Sendable, Equatable {
        var originSeq: Int64
        var reason: String
    }

    /// Appends `entries` through the server's `append` (``ServerLogSQL``), in one statement:
    /// the entries go as one JSON text (``uploadText(_:)``) that the server takes apart, not
    /// as eight bound arrays: postgres-nio encodes an array element by element, which took
    /// 29 % of the sender's CPU for a 50,000-row transaction in a debug build.
    func append(_ entries: [SyncEntry], origin: String, _ connection: PostgresConnection) async throws -> Upload {
        for try await (stored, added, refused) in try await connection.queryUnlessClosed(
            "SELECT stored, added, refused FROM \(unescaped: schema).append(\(origin), \(Self.uploadText(entries)))", logger: logger
        ).decode((Int64, Int32, String?).self) {
            return Upload(stored: stored, count: Int(added), refused: try refused.map(Self.refusals) ?? [])
        }
        throw SyncError(.server, "the server's append returned nothing; check that the sync tables' functions were not changed by hand")
    }

    /// The refusals `append` returns: a JSON array of `[seq, reason]`.
    private static func refusals(_ json: String) throws -> [Refusal] {
        guard case .array(let items)? = JSONValue(parsing: json) else {
            throw SyncError(.server, "the server's append returned refusals this version cannot read")
        }
        return items.compactMap { item in
            guard case .array(let pair) = item, pair.count == 2, case .integer(let seq) = pair[0], case .string(let reason) = pair[1] else { return nil }
            return Refusal(originSeq: seq, reason: reason)
        }
    }

    /// `entries` as one JSON array, each entry an array of its outbox seq, stamp, table, key,
    /// operation, column, payload, the log position its writer had seen and the value it
    /// replaced (an update's ``SeenState``), and the position of the concurrent edit it
    /// resolves (`null` for none). Every text is a JSON string, so any
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
            // What the writer had seen, the value it replaced, and what it resolves.
            bytes.append(contentsOf: ",\(entry.seen.map { String($0.position) } ?? "null"),".utf8)
            if let base = entry.seen?.base { JSONString.append(base, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
            bytes.append(contentsOf: ",\(entry.resolves.map(String.init) ?? "null")]".utf8)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The entries of `origin` after outbox seq `seq` that the server refused.
    func refusals(origin: String, after seq: Int64) async throws(SyncError) -> [Refusal] {
        do {
            var refused: [Refusal] = []
            for try await (seq, reason) in try await connection.queryUnlessClosed("""
                SELECT origin_seq, reason FROM \(unescaped: schema).refusals WHERE origin = \(origin) AND origin_seq > \(seq) ORDER BY origin_seq
                """, logger: logger).decode((Int64, String).self) { refused.append(Refusal(originSeq: seq, reason: reason)) }
            return refused
        } catch {
            throw ServerErrors.describe(error, url: url, while: "reading refusals from")
        }
    }
}
#endif
