#if SIGNALSTORE_SYNC
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Reading the log: a replica's downloads, packed into one text by the server.
extension ServerLog {
    /// Up to `limit` changes after `position`, in log order. Entries of `origin` (this
    /// replica's own) come without their values: they are already here, and only their place
    /// in the log matters (where the cursor passes them); one that lists a concurrent edit
    /// comes with its value, which the inbox shows.
    ///
    /// `through` is where the cursor may go: past the last entry, and when the download got
    /// everything there was (`complete`: fewer than `limit`, none left out for the batch's
    /// size, ``PackedEntries/byteLimit``), to the log's head, past every entry this replica
    /// does not read (other tables, other scopes), so no later download scans them again. The
    /// head is read in the statement that reads the entries, so in the same snapshot: an
    /// upload moves it in the transaction that stores its entries, so every entry before it is
    /// committed and seen, and none after it is. (One statement, not a read of the head and
    /// then the entries: at 50 replicas on two cores, every round trip waits for the CPU.)
    func download(after position: Int64, own origin: String, tables: [String], limit: Int) async throws(SyncError) -> (entries: [RemoteEntry], through: Int64, complete: Bool) {
        do {
            let next = "(SELECT next FROM \(schema).counter WHERE id = 1)"
            let (entries, last, selected, head) = try await packedEntries("""
                SELECT *, CASE WHEN origin = \(origin) AND overlap IS NULL THEN NULL ELSE payload END AS sent
                FROM \(unescaped: schema).log WHERE position > \(position) AND position < \(unescaped: next) AND tbl = ANY(\(tables)::text[])
                ORDER BY position LIMIT \(Int64(limit))
                """, payload: "sent", after: position, alongside: next)
            let complete = selected < limit && entries.count == selected
            return (entries, complete ? max(position, (head ?? 1) - 1) : last, complete)
        } catch {
            throw ServerErrors.describe(error, url: url, while: "downloading from")
        }
    }

    /// Every row of `query`, all received before the first is decoded.
    ///
    /// Not as an `AsyncSequence` with back-pressure: postgres-nio 1.33.2 stops the process (a
    /// `preconditionFailure` in `RowStreamStateMachine.channelReadComplete()`, "How can we
    /// receive a body part, after a channelReadComplete, but no read has been forwarded yet")
    /// when the server's connection closes while a row stream waits for its consumer to ask
    /// for more: a link cut during a download of thousands of entries killed `signalstore sync`.
    /// Collected whole, the rows are
    /// always asked for, and a closed connection fails the query with an error sync retries. A
    /// download is at most one batch (``SyncClient/batchSize``), so its rows stay bounded.
    func allRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        guard !connection.isClosed else { throw SessionEnded() }   // see PostgresConnection+Closed.swift
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
        return try await result.get().rows
    }

    /// The entries of the log rows `rows` selects (every column, in log order), packed into one
    /// text by the server (``PackedEntries``), `payload` naming the column sent as the payload:
    /// the first of them, as many as fit in one batch. Also the position of the last entry
    /// (`position` when there is none), how many rows `rows` selected, and the value of the
    /// integer expression `alongside`, read in the same snapshot.
    func packedEntries(_ rows: PostgresQuery, payload: String, after position: Int64, alongside: String = "NULL::bigint") async throws -> (entries: [RemoteEntry], through: Int64, selected: Int, alongside: Int64?) {
        var query = rows
        query.sql = PackedEntries.batchSQL(payload: payload, rows: rows.sql, alongside: alongside)
        var packed: String?
        var selected: Int64 = 0
        var value: Int64?
        if let row = try await allRows(query).first { (packed, selected, value) = try row.decode((String?, Int64, Int64?).self) }
        let (entries, through) = try PackedEntries.entries(packed, after: position)
        return (entries, through, Int(selected), value)
    }
}
#endif
