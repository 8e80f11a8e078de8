#if SIGNALSTORE_SYNC
import PostgresNIO
import SignalStore

extension SyncConflict {
    /// Whether the server lists a concurrent edit of a column (``SyncClient/setPolicy(_:table:column:on:)``).
    public enum Policy: String, Sendable, Equatable, CaseIterable {
        /// Listed in every replica's inbox, until resolved: the default.
        case review
        /// Last writer wins silently: for a column where that is what the app wants, such as a
        /// "last seen" timestamp.
        case silent
    }
}

extension SyncClient {
    /// Sets whether concurrent edits of `table`'s `column` (every column when `nil`) are listed.
    ///
    /// The policy lives on the server, which reads it when it marks an edit, so it is the same
    /// for every replica; it applies to changes uploaded from then on. Needs the sync tables'
    /// owner (or a superuser). `.review` of a table takes back every `.silent` of its columns.
    ///
    /// ```swift
    /// try await SyncClient.setPolicy(.silent, table: "devices", column: "last_seen", on: ownerURL)
    /// ```
    /// - Throws: ``SyncError`` when the server refuses (a role that does not own the sync tables)
    ///   or cannot be reached.
    public static func setPolicy(_ policy: SyncConflict.Policy, table: String, column: String? = nil, on url: PostgresURL) async throws(SyncError) {
        guard !table.isEmpty, column?.isEmpty != true else {
            throw SyncError(.invalidArgument, "name the table (and the column) whose concurrent edits to \(policy == .silent ? "leave silent" : "review")")
        }
        try await withLog(url) { log throws(SyncError) in
            try await log.setPolicy(policy, table: table, column: column)
        }
    }
}

extension ServerLog {
    /// Writes a policy into the server's `silent_columns` (``ConcurrentEditsSQL``).
    func setPolicy(_ policy: SyncConflict.Policy, table: String, column: String?) async throws(SyncError) {
        do {
            switch policy {
            case .silent:
                try await connection.queryUnlessClosed("""
                    INSERT INTO \(unescaped: schema).silent_columns VALUES (\(table), \(column ?? "*")) ON CONFLICT DO NOTHING
                    """, logger: logger)
            case .review:
                try await connection.queryUnlessClosed("""
                    DELETE FROM \(unescaped: schema).silent_columns WHERE tbl = \(table) AND (\(column == nil) OR col = \(column ?? "*"))
                    """, logger: logger)
            }
        } catch {
            throw ServerErrors.describe(error, url: url, while: "setting which concurrent edits are listed on")
        }
    }
}
#endif
