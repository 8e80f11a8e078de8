import Foundation
import SignalStore

/// Rebuilds tables from the change feed alone, strictly: an insert of a rowid that exists, or an
/// update or delete of one that does not, is an error (a missing or extra journal entry), never
/// papered over. The property the journal must satisfy: replaying it equals every table.
package enum JournalReplay {
    /// What a replay found different from the store.
    package struct Mismatch: Error, CustomStringConvertible {
        package let description: String
    }

    /// Replays `store`'s feed from seq 0 into an empty database, applying each of `migrations`
    /// at the point in the feed the store recorded for it (``AppliedMigration/afterSeq``).
    package static func replay(_ store: Store, migrations: [Migration]) throws -> Connection {
        let copy = try emptyConnection()
        let applied = try store.appliedMigrations
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { (Int64($0.version), $0) })
        var pending = applied[...]
        for change in try store.journalEntries(after: 0) {
            while let next = pending.first, (next.afterSeq ?? 0) < change.seq {
                try copy.execute(byVersion[next.version]!.sql)
                pending = pending.dropFirst()
            }
            try apply(change, to: copy)
        }
        for migration in pending { try copy.execute(byVersion[migration.version]!.sql) }
        return copy
    }

    /// Replays `store`'s feed from seq 0 into empty copies of its current tables: for tables
    /// created outside migrations, whose schema the feed does not carry.
    package static func replayOntoCurrentSchema(_ store: Store) throws -> Connection {
        let copy = try emptyConnection()
        for table in try store.readConnection(CapturedTable.names) {
            let sql = try store.readConnection { try $0.scalar("SELECT sql FROM sqlite_master WHERE name = ?", [.text(table)]) }
            if let create = sql?.textValue { try copy.execute(create) }
        }
        for change in try store.journalEntries(after: 0) { try apply(change, to: copy) }
        return copy
    }

    /// Throws a ``Mismatch`` naming the first table whose rows differ between `store` and
    /// `replayed`.
    package static func expectEqual(_ store: Store, _ replayed: Connection) throws {
        for table in try store.readConnection(CapturedTable.names) {
            let original = try store.readConnection { try contents(of: table, $0) }
            let rebuilt = try contents(of: table, replayed)
            guard original == rebuilt else {
                throw Mismatch(description: "table \(table): the journal replays to \(rebuilt) but the table holds \(original)")
            }
        }
    }

    /// Every row of `table`, with its rowid, in rowid order.
    package static func contents(of table: String, _ connection: Connection) throws -> [[SQLiteValue]] {
        try connection.statement("SELECT rowid, * FROM \(quotedIdentifier(table)) ORDER BY rowid").rows()
    }

    private static func emptyConnection() throws -> Connection {
        let copy = try Connection(path: ":memory:")
        try copy.execute("PRAGMA foreign_keys=OFF")
        return copy
    }

    /// Applies one entry, failing unless it changes exactly one row.
    package static func apply(_ change: Change, to connection: Connection) throws {
        let table = quotedIdentifier(change.table)
        switch change.operation {
        case .insert:
            let row = change.row ?? [:]
            let columns = try columnNames(of: change.table, connection).filter { row[$0] != nil }
            let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
            let names = (["rowid"] + columns.map(quotedIdentifier)).joined(separator: ", ")
            try connection.statement("INSERT INTO \(table) (\(names)) VALUES (\(placeholders))").run([.integer(change.rowID)] + columns.map { row[$0]! })
        case .delete:
            try connection.statement("DELETE FROM \(table) WHERE rowid = ?").run([.integer(change.rowID)])
        case .update:
            let column = change.column.map { $0 == "rowid" ? "rowid" : quotedIdentifier($0) } ?? "?"
            try connection.statement("UPDATE \(table) SET \(column) = ? WHERE rowid = ?").run([change.newValue ?? .null, .integer(change.rowID)])
        }
        guard connection.changes == 1 else {
            throw Mismatch(description: "entry \(change) changed \(connection.changes) rows of the replay instead of one")
        }
    }

    private static func columnNames(of table: String, _ connection: Connection) throws -> [String] {
        try TableSchema.read(table, connection)?.columnNames ?? []
    }
}
