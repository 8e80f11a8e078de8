#if SIGNALSTORE_SYNC
import PostgresNIO

/// What a replica of a deployment with scopes reads besides the log: its grants and the
/// history of a scope it gained.
extension ServerLog {
    /// A scope this connection's role holds, and the `NOTIFY` channel that rings for it.
    struct HeldScope: Sendable, Hashable {
        var scope: String
        var channel: String
    }

    /// The scopes the role holds (its grants and those of roles it inherits from).
    func heldScopes() async throws(SyncError) -> [HeldScope] {
        do {
            var held: [HeldScope] = []
            for try await (scope, channel) in try await connection.queryUnlessClosed("""
                SELECT DISTINCT scope, \(channel + "_") || left(md5(scope), 16) FROM \(unescaped: schema).grants ORDER BY 1
                """, logger: logger).decode((String, String).self) { held.append(HeldScope(scope: scope, channel: channel)) }
            return held
        } catch {
            throw ServerErrors.describe(error, url: url, while: "reading grants from")
        }
    }

    /// The channel that rings for every entry (the tables' owner listens there).
    var everyEntryChannel: String { channel + "_all" }

    /// Up to `limit` entries of `scopes` (entries that moved a row out of one included) after
    /// `position` and through `cursor`, with their values, this replica's own included: what a
    /// replica that gained the scopes missed.
    func history(of scopes: [String], after position: Int64, through cursor: Int64, limit: Int) async throws(SyncError) -> (entries: [RemoteEntry], through: Int64) {
        do {
            let (entries, through, _, _) = try await packedEntries("""
                SELECT * FROM \(unescaped: schema).log
                WHERE position > \(position) AND position <= \(cursor) AND (scope = ANY(\(scopes)::text[]) OR previous_scope = ANY(\(scopes)::text[]))
                ORDER BY position LIMIT \(Int64(limit))
                """, payload: "payload", after: position)
            return (entries, through)
        } catch {
            throw ServerErrors.describe(error, url: url, while: "downloading from")
        }
    }
}
#endif
