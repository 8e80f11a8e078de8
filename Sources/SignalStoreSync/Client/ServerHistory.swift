#if SIGNALSTORE_SYNC
import Foundation
import PostgresNIO
import SignalStore

/// An entry of the server's log as the server recorded it: where it stands, which replica made
/// it and which PostgreSQL role uploaded it (``uploadedBy``, set by the server, never by a
/// client), and what it did.
public struct ServerLogEntry: Sendable, Equatable {
    /// Its position in the log.
    public let position: Int64
    /// The origin id of the replica that made it.
    public let origin: String
    /// The role that uploaded it.
    public let uploadedBy: String
    /// When the server stored it.
    public let committedAt: Date
    /// What it did to the row (`nil` for an operation this version does not know).
    public let operation: Change.Operation?
    /// The column of an update.
    public let column: String?
    /// The values it wrote: an insert's whole row, an update's column; empty for a delete (or
    /// a payload this version cannot read).
    public let values: [String: SQLiteValue]
}

extension SyncClient {
    /// Every entry the server's log holds for one row, oldest first, as the connection's role
    /// may read them (with scopes: those of its scopes and the shared tables). `signalstore
    /// history TABLE ID --postgres URL` prints them beside the row's local history.
    /// - Parameters:
    ///   - url: The server, as ``SyncClient/url`` names it.
    ///   - table: The synced table.
    ///   - key: The row's primary key, in key order.
    public static func serverHistory(_ url: PostgresURL, table: String, key: [SQLiteValue]) async throws(SyncError) -> [ServerLogEntry] {
        let encodedKey = SyncValueCoding.encodeKey(key)
        return try await withLog(url) { log throws(SyncError) in try await log.history(table: table, key: encodedKey) }
    }
}

extension ServerLog {
    /// The log's entries of one row, in log order.
    func history(table: String, key: String) async throws(SyncError) -> [ServerLogEntry] {
        do {
            var entries: [ServerLogEntry] = []
            for try await (position, origin, role, committed, op, column, payload) in try await connection.queryUnlessClosed("""
                SELECT position, origin, uploaded_by::text, committed_at, op, col, payload FROM \(unescaped: schema).log
                WHERE tbl = \(table) AND row_key = \(key) ORDER BY position
                """, logger: logger).decode((Int64, String, String, Date, String, String?, String?).self) {
                let operation = Change.Operation(rawValue: op)
                var values: [String: SQLiteValue] = [:]
                switch operation {
                case .insert: values = payload.flatMap(SyncValueCoding.decodeRow) ?? [:]
                case .update: if let column, let value = payload.flatMap(SyncValueCoding.decode) { values = [column: value] }
                case .delete, nil: break
                }
                entries.append(ServerLogEntry(position: position, origin: origin, uploadedBy: role, committedAt: committed,
                                              operation: operation, column: column, values: values))
            }
            return entries
        } catch {
            throw ServerErrors.describe(error, url: url, while: "reading from")
        }
    }
}
#endif
