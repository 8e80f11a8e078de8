#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// The local half of uploading: stamping new journal entries into the outbox, in the same
/// transaction that reads them, and handing out what is still to upload.
enum Outbox {
    /// The stamped entries not yet confirmed in the server's log, in stamping order.
    static let table = "_signalstore_sync_outbox"

    /// Creates the outbox where missing.
    static func create(_ connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(Self.table) (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, hlc INTEGER NOT NULL, tbl TEXT NOT NULL,
                row_key TEXT NOT NULL, op TEXT NOT NULL, col TEXT, payload TEXT,
                seen INTEGER, base TEXT, resolves INTEGER);
            """)
        try addSeenColumns(connection)
    }

    /// The highest outbox seq ever used in this file (uploaded or not).
    static func highestSeq(_ connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(Self.table)])?.integerValue ?? 0
    }

    /// Each row with entries in the outbox (its table and encoded key), in the order this
    /// replica first changed it.
    static func rows(_ connection: Connection) throws -> [(table: String, key: String)] {
        try connection.statement("SELECT tbl, row_key FROM \(Self.table) GROUP BY tbl, row_key ORDER BY min(seq)").rows().compactMap { row in
            guard case .text(let name) = row[0], case .text(let key) = row[1] else { return nil }
            return (name, key)
        }
    }

    /// The keys (encoded) of the rows of `table` with entries in the outbox.
    static func keys(of table: String, _ connection: Connection) throws -> [String] {
        try connection.statement("SELECT DISTINCT row_key FROM \(Self.table) WHERE tbl = ?").rows([.text(table)]).compactMap(\.first?.textValue)
    }

    /// How many journal entries are read at once: a transaction of any size is stamped in
    /// the memory of this many.
    static let window: Int64 = 5_000

    /// Stamps the journal entries after `position.stampedThrough` and moves them into the
    /// outbox: all of them, or the first `limit` windows' worth (``window`` entries each), so a
    /// big transaction's first pages can go up while the rest waits to be stamped.
    ///
    /// Runs inside a write transaction, so the database is exactly at the journal's head: the
    /// primary key of each entry's row is found by walking the entries back from the rows as
    /// they are now (a later delete or key change tells what the key was). Up to ``window``
    /// entries are read in one go; more are walked back a window at a time into a temporary
    /// table of keys (``KeyTable``), then stamped forward a window at a time, in this
    /// transaction or in later ones: the keys stay true however many entries come after.
    static func stampPending(_ tables: SyncedTables, at position: inout ReplicaState.Position, windows limit: Int = .max, _ connection: Connection) throws {
        let head = try Journal.highestSeq(connection)
        guard head > position.stampedThrough else { return }
        _ = try Journal.entriesWithoutGap(after: position.stampedThrough, limit: 0, connection)   // fails if entries were pruned
        let keyColumns: (String) -> [String]? = { tables.byName[$0]?.primaryKey }
        var stamped = 0
        while position.stampedThrough < head, stamped < limit {
            let from = position.stampedThrough
            // A window's worth or less is walked from the head in memory, first: a commit of a
            // few rows, the common case, asks the temporary tables nothing (what a big walk
            // left of itself then goes with the next big walk, or with the connection).
            if head - from <= window {
                let entries = try Journal.entries(after: from, connection)
                let keys = try Journal.keysAtWrite(entries, keyColumns: keyColumns, keyingInserts: false, connection)
                for entry in movesLast(entries, tables) { try stamp(entry, key: keys[entry.seq].map(SyncValueCoding.encodeKey), tables, &position.clock, origin: position.origin, cursor: position.serverCursor, connection) }
                position.stampedThrough = head
            } else if let walked = try KeyTable.walked(after: from, connection) {
                let upper = min(walked, from + window)
                let keys = try KeyTable.take(after: from, through: upper, connection)
                for entry in try entries(after: from, through: upper, connection) { try stamp(entry, key: keys[entry.seq], tables, &position.clock, origin: position.origin, cursor: position.serverCursor, connection) }
                position.stampedThrough = upper
            } else {
                try KeyTable.walk(after: from, through: head, keyColumns: keyColumns, connection)
                continue
            }
            stamped += 1
        }
    }

    /// `entries` with each update of a scope column moved after the updates of the same row
    /// that directly follow it (one `UPDATE` of several columns journals them in column
    /// order). The move then carries the row's other new values in its history: a replica that
    /// gains the row gets it with them (a task moved with its new project, not its old one).
    static func movesLast(_ entries: [Change], _ tables: SyncedTables) -> [Change] {
        guard !tables.scopes.columns.isEmpty else { return entries }
        var ordered = entries
        var index = 0
        while index < ordered.count {
            let entry = ordered[index]
            guard entry.operation == .update, entry.column == tables.scopes.columns[entry.table] else {
                index += 1
                continue
            }
            var end = index + 1
            while end < ordered.count, ordered[end].operation == .update, ordered[end].table == entry.table, ordered[end].rowID == entry.rowID { end += 1 }
            ordered.remove(at: index)
            ordered.insert(entry, at: end - 1)
            index = end
        }
        return ordered
    }

    /// The journal entries in (`lower`, `upper`], in seq order.
    static func entries(after lower: Int64, through upper: Int64, _ connection: Connection) throws -> [Change] {
        try Journal.entries(after: lower, limit: Int(upper - lower), connection).filter { $0.seq <= upper }
    }

    /// Stamps, as this replica's own pending changes, the journal entries after `seq` that
    /// are not of the rows `besides` names (by table and encoded key): what the schema's foreign
    /// key actions did when sync wrote a pending change of this replica's again.
    ///
    /// A pending delete written again after a downloaded change that references its row (set
    /// aside, then replayed) sets that reference to `NULL` here (or deletes the row, or sets its
    /// default). The replica that made the delete did not have the reference then, so its
    /// journal held no such change; every other replica's delete acts on the reference too, but
    /// as a side effect no register records, and a pending change of the reference that later
    /// lost went back to the value before the delete (chaos seed 7, issue 39). Stamped, the
    /// action's effects are changes in the log like those of a delete made with the reference
    /// present.
    static func stampActions(
        after seq: Int64, besides: (_ table: String, _ key: String) -> Bool, _ tables: SyncedTables,
        clock: inout HybridLogicalClock, origin: String, _ connection: Connection
    ) throws {
        let entries = try Journal.entries(after: seq, connection)
        guard !entries.isEmpty else { return }
        let keys = try Journal.keysAtWrite(entries, keyColumns: { tables.byName[$0]?.primaryKey }, connection)
        for entry in entries {
            guard let key = keys[entry.seq].map(SyncValueCoding.encodeKey), !besides(entry.table, key) else { continue }
            try stamp(entry, key: key, tables, &clock, origin: origin, cursor: nil, connection)
        }
    }

    /// Stamps one journal entry (with its row's key then) into the outbox.
    /// An insert's key may be left `nil`: it is read from the row, which the payload needs anyway.
    /// A change made at server log position `cursor` says so (``SeenState``); `nil` for what
    /// sync itself wrote, which no one edits concurrently.
    private static func stamp(
        _ entry: Change, key: String?, _ tables: SyncedTables, _ clock: inout HybridLogicalClock, origin: String, cursor: Int64?, _ connection: Connection
    ) throws {
        guard let table = tables.byName[entry.table] else { return }
        let payload: String?
        var key = key
        switch entry.operation {
        case .insert:
            guard let row = entry.rowMembers else { return }
            if key == nil, !table.primaryKey.isEmpty { key = Journal.key(table.primaryKey, of: row).map(SyncValueCoding.encodeKey) }
            payload = SyncValueCoding.encodeRow(row, nameOrder: tables.nameOrder[table.name])
        case .update: payload = SyncValueCoding.encode(entry.newValue ?? .null)
        case .delete: payload = nil
        }
        guard let key else { return }
        clock = .next(after: clock, wallClock: entry.timestamp)
        var syncEntry = SyncEntry(
            originSeq: 0, clock: clock, table: table.name, key: key,
            operation: entry.operation, column: entry.column, payload: payload
        )
        if let cursor {
            syncEntry.seen = SeenState(position: cursor, base: entry.operation == .update ? SyncValueCoding.encode(entry.oldValue ?? .null) : nil)
        }
        try add(syncEntry, origin: origin, connection)
    }

    /// The entry with outbox seq `seq`, if it is still to upload.
    static func entry(seq: Int64, _ connection: Connection) throws -> SyncEntry? {
        try pending(after: seq - 1, limit: 1, connection).first { $0.originSeq == seq }
    }

    /// Every row of the synced tables as an insert stamped now: a replica's first sync. Parents
    /// come before the tables that refer to them, so every replica can apply the rows in log
    /// order (by name, `lines` came before the `orders` its rows name, and other replicas
    /// refused them).
    static func snapshot(_ tables: SyncedTables, at position: inout ReplicaState.Position, _ connection: Connection) throws {
        for table in tables.parentsFirst {
            for row in try connection.rows("SELECT \(identifiers: table.columns) FROM \(identifier: table.name)") {
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
        try connection.statement("SELECT seq, hlc, tbl, row_key, op, col, payload, seen, base, resolves FROM \(Self.table) WHERE seq > ? ORDER BY seq LIMIT ?")
            .rows([.integer(uploaded), .integer(Int64(limit))])
            .compactMap { row in
                guard case .integer(let seq) = row[0], case .integer(let hlc) = row[1], case .text(let table) = row[2],
                      case .text(let key) = row[3], case .text(let op) = row[4], let operation = Change.Operation(rawValue: op)
                else { return nil }
                let column: String? = if case .text(let name) = row[5] { name } else { nil }
                let payload: String? = if case .text(let text) = row[6] { text } else { nil }
                var entry = SyncEntry(originSeq: seq, clock: HybridLogicalClock(rawValue: hlc), table: table, key: key,
                                      operation: operation, column: column, payload: payload)
                if let seen = row[7].integerValue { entry.seen = SeenState(position: seen, base: row[8].textValue) }
                entry.resolves = row[9].integerValue
                return entry
            }
    }

    /// The rows of `tables` that this replica's entries through outbox seq `seq` delete
    /// (table and encoded key), in outbox order.
    static func deletes(through seq: Int64, of tables: Set<String>, _ connection: Connection) throws -> [(table: String, key: String, seq: Int64)] {
        guard !tables.isEmpty else { return [] }
        let names = tables.sorted()
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return try connection.statement(
            "SELECT tbl, row_key, seq FROM \(Self.table) WHERE seq <= ? AND op = 'delete' AND tbl IN (\(placeholders)) ORDER BY seq"
        ).rows([.integer(seq)] + names.map { .text($0) }).compactMap { row in
            guard case .text(let table) = row[0], case .text(let key) = row[1], case .integer(let seq) = row[2] else { return nil }
            return (table, key, seq)
        }
    }

    /// The number of entries waiting to be uploaded (after outbox seq `uploaded`), counting no
    /// further than `limit`: a caller that only compares the count with a bound does not scan
    /// a big transaction's whole outbox (a page of 5,000 confirmed while 45,000 wait read them
    /// all, for each page).
    static func count(after uploaded: Int64, limit: Int64 = -1, _ connection: Connection) throws -> Int64 {
        let sql = "SELECT count(*) FROM (SELECT 1 FROM \(Self.table) WHERE seq > ? LIMIT ?)"
        return try connection.scalar(sql, [.integer(uploaded), .integer(limit)])?.integerValue ?? 0
    }

    /// The rows the outbox's entries change (table and encoded key), each with the column an
    /// update changes: once per row and column.
    static func pendingRows(_ connection: Connection) throws -> [(table: String, key: String, column: String?)] {
        try connection.statement("SELECT DISTINCT tbl, row_key, col FROM \(Self.table)").rows().compactMap { row in
            guard case .text(let table) = row[0], case .text(let key) = row[1] else { return nil }
            return (table, key, row[2].textValue)
        }
    }

    /// The seq of the last entry in the outbox (uploaded or not), or `nil` when it is empty.
    static func lastSeq(_ connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT max(seq) FROM \(Self.table)")?.integerValue
    }

    /// Whether any entry after outbox seq `uploaded` waits to be uploaded.
    static func hasEntries(after uploaded: Int64, _ connection: Connection) throws -> Bool {
        try count(after: uploaded, limit: 1, connection) > 0
    }

    /// Removes the entries the server has stored.
    static func remove(through seq: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(Self.table) WHERE seq <= ?").run([.integer(seq)])
    }

    /// The outbox seq of the row's oldest change still to upload, or `nil` for none.
    static func firstPendingSeq(_ table: String, _ key: String, _ connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT min(seq) FROM \(Self.table) WHERE tbl = ? AND row_key = ?", [.text(table), .text(key)])?.integerValue
    }

    /// Takes one entry out of the outbox: it lost, and is never uploaded.
    static func remove(seq: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(Self.table) WHERE seq = ?").run([.integer(seq)])
    }

    /// Adds an entry and records its stamp as the column's (or row's) winning one: a local write
    /// is the latest this replica knows of. It stays pending until the server stores it.
    static func add(_ entry: SyncEntry, origin: String, _ connection: Connection) throws {
        try connection.statement("INSERT INTO \(Self.table) (hlc, tbl, row_key, op, col, payload, seen, base, resolves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)").run([
            .integer(entry.clock.rawValue), .text(entry.table), .text(entry.key), .text(entry.operation.rawValue),
            entry.column.map(SQLiteValue.text) ?? .null, entry.payload.map(SQLiteValue.text) ?? .null,
            entry.seen.map { .integer($0.position) } ?? .null, entry.seen?.base.map(SQLiteValue.text) ?? .null, entry.resolves.map(SQLiteValue.integer) ?? .null,
        ])
        let register = Register(entry.operation, column: entry.column)
        try StampTable.raise(register, entry.table, entry.key, to: Stamp(clock: entry.clock, origin: origin), value: entry.payload, fromServer: false, connection)
    }
}
#endif
