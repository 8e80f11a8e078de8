#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// Where a replica keeps the changes that lost to a constraint (``SyncConflict``), in its own
/// database file, in a table the journal does not capture. Written in the transaction that
/// applies the change that won, so a conflict and the rows it explains move together.
enum ConflictLog {
    static let table = "_signalstore_sync_conflicts"

    /// A losing change, as recorded.
    struct Record {
        var origin: String
        var isLocal: Bool
        var table: String
        var key: String
        var operation: Change.Operation
        var column: String?
        var row: [String: SQLiteValue]?
        var rule: String
        var collidedWith: String
    }

    static func create(_ connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                id INTEGER PRIMARY KEY AUTOINCREMENT, detected_at REAL NOT NULL, origin TEXT NOT NULL,
                is_local INTEGER NOT NULL, tbl TEXT NOT NULL, row_key TEXT NOT NULL, op TEXT NOT NULL,
                col TEXT, row TEXT, rule TEXT NOT NULL, collided_with TEXT NOT NULL)
            """)
    }

    static func add(_ record: Record, _ connection: Connection) throws {
        try connection.statement("""
            INSERT INTO \(table) (detected_at, origin, is_local, tbl, row_key, op, col, row, rule, collided_with)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run([
                .real(Date().timeIntervalSince1970), .text(record.origin), .integer(record.isLocal ? 1 : 0), .text(record.table),
                .text(record.key), .text(record.operation.rawValue), record.column.map(SQLiteValue.text) ?? .null,
                record.row.map { .text(SyncValueCoding.encodeRow($0)) } ?? .null, .text(record.rule), .text(record.collidedWith),
            ])
    }

    /// Every conflict kept, oldest first; none in a file that never synced.
    static func all(_ connection: Connection) throws -> [SyncConflict] {
        guard try connection.tableExists(table) else { return [] }
        return try connection.statement("SELECT id, detected_at, origin, is_local, tbl, row_key, op, col, row, rule, collided_with FROM \(table) ORDER BY id")
            .rows().compactMap(conflict)
    }

    static func find(_ id: Int64, _ connection: Connection) throws -> SyncConflict? {
        guard try connection.tableExists(table) else { return nil }
        return try connection.statement("SELECT id, detected_at, origin, is_local, tbl, row_key, op, col, row, rule, collided_with FROM \(table) WHERE id = ?")
            .rows([.integer(id)]).first.flatMap(conflict)
    }

    static func remove(_ id: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(table) WHERE id = ?").run([.integer(id)])
    }

    private static func conflict(_ row: [SQLiteValue]) -> SyncConflict? {
        guard case .integer(let id) = row[0], case .text(let origin) = row[2], case .integer(let isLocal) = row[3],
              case .text(let table) = row[4], case .text(let key) = row[5], case .text(let op) = row[6],
              let operation = Change.Operation(rawValue: op), case .text(let rule) = row[9], case .text(let collided) = row[10]
        else { return nil }
        let detected: Double = if case .real(let seconds) = row[1] { seconds } else { 0 }
        return SyncConflict(
            id: id, table: table, key: SyncValueCoding.decodeKey(key) ?? [], operation: operation, column: row[7].textValue,
            row: row[8].textValue.flatMap(SyncValueCoding.decodeRow), origin: origin, isLocal: isLocal != 0,
            rule: rule, collidedWith: collided, detectedAt: Date(timeIntervalSince1970: detected)
        )
    }
}
#endif
