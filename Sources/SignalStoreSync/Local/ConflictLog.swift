#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// Where a replica keeps the changes that did not take effect (``SyncConflict``), in its own
/// database file, in a table the journal does not capture. Written in the transaction that
/// applies the change that won (or sets an unreadable entry aside), so a conflict and the rows
/// it explains move together.
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
        var kind: SyncConflict.Kind = .constraint
        /// The server log's position of an unreadable entry.
        var position: Int64? = nil
        /// The role that uploaded another replica's entry, as the server recorded it.
        var uploadedBy: String? = nil
    }

    private static let columns = "id, detected_at, origin, is_local, tbl, row_key, op, col, row, rule, collided_with, kind, position, uploaded_by"

    static func create(_ connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                id INTEGER PRIMARY KEY AUTOINCREMENT, detected_at REAL NOT NULL, origin TEXT NOT NULL,
                is_local INTEGER NOT NULL, tbl TEXT NOT NULL, row_key TEXT NOT NULL, op TEXT NOT NULL,
                col TEXT, row TEXT, rule TEXT NOT NULL, collided_with TEXT NOT NULL,
                kind TEXT NOT NULL DEFAULT 'constraint', position INTEGER, uploaded_by TEXT)
            """)
        // A file from before kinds: its refusals were listed as constraints, by their rule.
        let present = try connection.statement("SELECT name FROM pragma_table_info('\(table)')").rows().compactMap { $0[0].textValue }
        if !present.contains("kind") {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN kind TEXT NOT NULL DEFAULT 'constraint'")
            try connection.execute("UPDATE \(table) SET kind = 'refused' WHERE rule LIKE 'refused by the server%'")
        }
        if !present.contains("position") { try connection.execute("ALTER TABLE \(table) ADD COLUMN position INTEGER") }
        if !present.contains("uploaded_by") { try connection.execute("ALTER TABLE \(table) ADD COLUMN uploaded_by TEXT") }
    }

    static func add(_ record: Record, _ connection: Connection) throws {
        try connection.statement("""
            INSERT INTO \(table) (detected_at, origin, is_local, tbl, row_key, op, col, row, rule, collided_with, kind, position, uploaded_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run([
                .real(Date().timeIntervalSince1970), .text(record.origin), .integer(record.isLocal ? 1 : 0), .text(record.table),
                .text(record.key), .text(record.operation.rawValue), record.column.map(SQLiteValue.text) ?? .null,
                record.row.map { .text(SyncValueCoding.encodeRow($0)) } ?? .null, .text(record.rule), .text(record.collidedWith),
                .text(record.kind.rawValue), record.position.map(SQLiteValue.integer) ?? .null, record.uploadedBy.map(SQLiteValue.text) ?? .null,
            ])
    }

    /// Every conflict kept, oldest first, then the concurrent edits listed (``ConcurrentEdits``);
    /// none in a file that never synced.
    static func all(_ connection: Connection) throws -> [SyncConflict] {
        guard try connection.tableExists(table) else { return [] }
        let kept = try connection.statement("SELECT \(columns) FROM \(table) ORDER BY id").rows().compactMap(conflict)
        return try kept + ConcurrentEdits.all(origin: ReplicaState.read(connection)?.origin, connection)
    }

    static func find(_ id: Int64, _ connection: Connection) throws -> SyncConflict? {
        guard try connection.tableExists(table) else { return nil }
        return try connection.statement("SELECT \(columns) FROM \(table) WHERE id = ?")
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
        let kind = row[11].textValue.flatMap(SyncConflict.Kind.init(rawValue:)) ?? .constraint
        return SyncConflict(
            id: id, kind: kind, position: row[12].integerValue, table: table, key: SyncValueCoding.decodeKey(key) ?? [], operation: operation, column: row[7].textValue,
            row: row[8].textValue.flatMap(SyncValueCoding.decodeRow), origin: origin, uploadedBy: row[13].textValue, isLocal: isLocal != 0,
            rule: rule, collidedWith: collided, detectedAt: Date(timeIntervalSince1970: detected)
        )
    }
}
#endif
