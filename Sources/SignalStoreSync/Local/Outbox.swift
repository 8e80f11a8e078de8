import Foundation
import SignalStore

/// The local half of uploading: stamping new journal entries into the outbox, in the same
/// transaction that reads them, and handing out what is still to upload.
enum Outbox {
    /// Stamps every journal entry after `position.stampedThrough` and moves it into the outbox.
    ///
    /// Runs inside a write transaction, so the database is exactly at the journal's head: the
    /// primary key of each entry's row is found by walking the entries back from the rows as
    /// they are now (a later delete or key change tells what the key was).
    static func stampPending(_ tables: SyncedTables, at position: inout ReplicaState.Position, _ connection: Connection) throws {
        let entries = try Journal.entriesWithoutGap(after: position.stampedThrough, connection)
        guard let last = entries.last else { return }
        let keys = try Journal.keysAtWrite(entries, keyColumns: { tables.byName[$0]?.primaryKey }, connection)
        for entry in entries {
            guard let table = tables.byName[entry.table], let key = keys[entry.seq] else { continue }
            position.clock = .next(after: position.clock, wallClock: entry.timestamp)
            let payload: String? = switch entry.operation {
            case .insert: entry.row.map(SyncValueCoding.encodeRow)
            case .update: SyncValueCoding.encode(entry.newValue ?? .null)
            case .delete: nil
            }
            let syncEntry = SyncEntry(
                originSeq: 0, clock: position.clock, table: table.name, key: SyncValueCoding.encodeKey(key),
                operation: entry.operation, column: entry.column, payload: payload
            )
            try add(syncEntry, origin: position.origin, connection)
        }
        position.stampedThrough = last.seq
    }

    /// Every row of the synced tables as an insert stamped now: a replica's first sync.
    static func snapshot(_ tables: SyncedTables, at position: inout ReplicaState.Position, _ connection: Connection) throws {
        for table in tables.byName.values.sorted(by: { $0.name < $1.name }) {
            let columns = table.columns.map(quotedIdentifier).joined(separator: ", ")
            for row in try connection.statement("SELECT \(columns) FROM \(quotedIdentifier(table.name))").rows() {
                let values = Dictionary(uniqueKeysWithValues: zip(table.columns, row))
                guard let key = tables.key(of: values, in: table) else { continue }
                position.clock = .next(after: position.clock, wallClock: Date())
                try add(
                    SyncEntry(originSeq: 0, clock: position.clock, table: table.name, key: SyncValueCoding.encodeKey(key),
                              operation: .insert, column: nil, payload: SyncValueCoding.encodeRow(values)),
                    origin: position.origin, connection
                )
            }
        }
    }

    /// Up to `limit` entries to upload (after outbox seq `uploaded`), oldest first.
    static func pending(after uploaded: Int64, limit: Int, _ connection: Connection) throws -> [SyncEntry] {
        try connection.statement("SELECT seq, hlc, tbl, row_key, op, col, payload FROM \(ReplicaState.outboxTable) WHERE seq > ? ORDER BY seq LIMIT ?")
            .rows([.integer(uploaded), .integer(Int64(limit))])
            .compactMap { row in
                guard case .integer(let seq) = row[0], case .integer(let hlc) = row[1], case .text(let table) = row[2],
                      case .text(let key) = row[3], case .text(let op) = row[4], let operation = Change.Operation(rawValue: op)
                else { return nil }
                let column: String? = if case .text(let name) = row[5] { name } else { nil }
                let payload: String? = if case .text(let text) = row[6] { text } else { nil }
                return SyncEntry(originSeq: seq, clock: HybridLogicalClock(rawValue: hlc), table: table, key: key,
                                 operation: operation, column: column, payload: payload)
            }
    }

    /// The number of entries waiting to be uploaded (after outbox seq `uploaded`).
    static func count(after uploaded: Int64, _ connection: Connection) throws -> Int64 {
        guard let count = try connection.scalar("SELECT count(*) FROM \(ReplicaState.outboxTable) WHERE seq > ?", [.integer(uploaded)])?.integerValue else { return 0 }
        return count
    }

    /// Removes the entries the server has stored.
    static func remove(through seq: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(ReplicaState.outboxTable) WHERE seq <= ?").run([.integer(seq)])
    }

    /// The outbox seq of the row's oldest change still to upload, or `nil` for none.
    static func firstPendingSeq(_ table: String, _ key: String, _ connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT min(seq) FROM \(ReplicaState.outboxTable) WHERE tbl = ? AND row_key = ?", [.text(table), .text(key)])?.integerValue
    }

    /// Takes one entry out of the outbox: it lost, and is never uploaded.
    static func remove(seq: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(ReplicaState.outboxTable) WHERE seq = ?").run([.integer(seq)])
    }

    /// Takes a register's pending changes out of the outbox: they lost, and are never uploaded.
    static func remove(_ register: ReplicaState.Register, _ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(ReplicaState.outboxTable) WHERE tbl = ? AND row_key = ? AND op = ? AND coalesce(col, '') = ?")
            .run([.text(table), .text(key), .text(register.operation.rawValue), .text(register.column ?? "")])
    }

    /// Adds an entry and records its stamp as the column's (or row's) winning one: a local write
    /// is the latest this replica knows of. It stays pending until the server stores it.
    private static func add(_ entry: SyncEntry, origin: String, _ connection: Connection) throws {
        try connection.statement("INSERT INTO \(ReplicaState.outboxTable) (hlc, tbl, row_key, op, col, payload) VALUES (?, ?, ?, ?, ?, ?)").run([
            .integer(entry.clock.rawValue), .text(entry.table), .text(entry.key), .text(entry.operation.rawValue),
            entry.column.map(SQLiteValue.text) ?? .null, entry.payload.map(SQLiteValue.text) ?? .null,
        ])
        let register = ReplicaState.Register(entry.operation, column: entry.column)
        try ReplicaState.raise(register, entry.table, entry.key, to: Stamp(clock: entry.clock, origin: origin), value: entry.payload, fromServer: false, connection)
    }
}
