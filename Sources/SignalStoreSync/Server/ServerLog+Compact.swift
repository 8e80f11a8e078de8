#if SIGNALSTORE_SYNC
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Compaction: the log keeps only the entries that carry a register's latest stamp.
extension ServerLog {
    /// Deletes every log entry of `tables` that a later-stamped entry of the same register
    /// supersedes (see ``RemoteApplier``): per row, only the latest insert, the latest delete
    /// and per column the latest update stay, and so does every entry that lists a concurrent
    /// edit or resolves one (``ConcurrentEditsSQL``): a replica that joins later lists the same
    /// inbox. Returns how many entries went. Tables with constraints between rows are left whole
    /// (``SyncedTables/compactable``).
    ///
    /// Safe at any time, for every replica whatever its cursor: a replica's rows are a function
    /// of the latest stamp of each register, and the entry carrying it stays in the log, either
    /// behind the cursor (already applied) or ahead of it (still to come). So the log is never
    /// truncated below anybody: no replica can fall behind it, and a new replica reads only
    /// what the rows are now.
    func compact(tables: [String]) async throws(SyncError) -> Int {
        do {
            var deleted = 0
            for try await count in try await connection.queryUnlessClosed("""
                WITH superseded AS (
                    SELECT position FROM (
                        SELECT position, overlap IS NOT NULL OR resolves IS NOT NULL AS listed, row_number() OVER (
                            PARTITION BY tbl, row_key, CASE op WHEN 'update' THEN 'column ' || col ELSE op END
                            ORDER BY hlc DESC, origin COLLATE "C" DESC) AS rank
                        FROM \(unescaped: schema).log WHERE tbl = ANY(\(tables)::text[])) ranked
                    WHERE rank > 1 AND NOT listed),
                gone AS (DELETE FROM \(unescaped: schema).log WHERE position IN (SELECT position FROM superseded) RETURNING 1)
                SELECT count(*) FROM gone
                """, logger: logger).decode(Int64.self) { deleted = Int(count) }
            return deleted
        } catch {
            throw ServerErrors.describe(error, url: url, while: "compacting the log on")
        }
    }
}
#endif
