import Foundation

/// A migration as the database records it: when it ran, and where in the change feed.
///
/// A migration's own changes to rows (a table rebuilt, a column filled) are not journaled: the
/// capture triggers are off while it runs. A consumer that replays the feed into an empty
/// database instead applies the migration itself once it has applied every entry up to
/// ``afterSeq``, and so reaches the same tables.
public struct AppliedMigration: Sendable, Equatable {
    /// The migration's version.
    public let version: Int64
    /// Its name.
    public let name: String
    /// When it was applied.
    public let appliedAt: Date
    /// The highest change-feed seq when it was applied: it ran after the entries up to this seq
    /// and before the later ones. `nil` for migrations applied by SignalStore versions that did
    /// not record it.
    public let afterSeq: Int64?

    /// The migrations applied to the database on `connection`, by version; none if it has no
    /// migration table.
    package static func all(_ connection: Connection) throws -> [AppliedMigration] {
        guard let table = try TableSchema.read(Migrator.table, connection) else { return [] }
        let hasAfterSeq = table.column(named: "after_seq") != nil
        let sql = "SELECT version, name, applied_at, \(hasAfterSeq ? "after_seq" : "NULL") FROM \(Migrator.table) ORDER BY version"
        return try connection.statement(sql).rows().compactMap { row in
            guard case .integer(let version) = row[0], case .text(let name) = row[1], let seconds = Double(sqliteValue: row[2]) else { return nil }
            let afterSeq: Int64? = if case .integer(let seq) = row[3] { seq } else { nil }
            return AppliedMigration(version: version, name: name, appliedAt: Date(timeIntervalSince1970: seconds), afterSeq: afterSeq)
        }
    }
}
