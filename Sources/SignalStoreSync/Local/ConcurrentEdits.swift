#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// The inbox of concurrent edits (``SyncConflict/Kind/concurrentEdit``), in the replica's own
/// database file, in a table the journal does not capture.
///
/// The server decides which entries of its log list an edit (``ConcurrentEditsSQL``); a replica
/// keeps what its cursor passes, its own entries included, under the entry's log position: the
/// same number on every replica. A delete that swallowed updates of several columns lists one
/// of them under its own position and each other under the update's (`also`); an insert that
/// met another replica's insert of the row lists the first column the two set differently
/// under its own position and each other under an id the server derived from it
/// (``ConcurrentEditsSQL/firstDerivedID``). An entry that
/// lists an edit takes out every earlier listing of the same column between the same two
/// replicas; one that resolves an edit takes that one out. Written in the transaction that
/// applies the batch, so the inbox and the rows move together.
enum ConcurrentEdits {
    static let table = "_signalstore_sync_concurrent_edits"

    private static let columns = """
        position, tbl, row_key, col, base, edit_hlc, edit_origin, edit_by, edit_value,
        other_position, other_hlc, other_origin, other_by, other_value, detected_at, edit_deletes, other_deletes, edit_position, inserts
        """

    /// Creates the table, and the index by which a new listing finds the one it replaces (without
    /// it, 10,000 listings in one batch scanned the table 10,000 times: 141 µs an applied entry
    /// where 24 µs without listings, `SyncHarness --overlaps`).
    static func create(_ connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                position INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, base TEXT,
                edit_hlc INTEGER NOT NULL, edit_origin TEXT NOT NULL, edit_by TEXT, edit_value TEXT,
                other_position INTEGER NOT NULL, other_hlc INTEGER NOT NULL, other_origin TEXT NOT NULL, other_by TEXT,
                other_value TEXT, detected_at REAL NOT NULL, edit_deletes INTEGER NOT NULL, other_deletes INTEGER NOT NULL,
                edit_position INTEGER, inserts INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS \(table)_column ON \(table) (tbl, row_key, col);
            """)
        // An inbox from before a delete listed every column it swallowed, or inserts were listed.
        let schema = try TableSchema.read(table, connection)
        if schema?.column(named: "edit_position") == nil {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN edit_position INTEGER")
        }
        if schema?.column(named: "inserts") == nil {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN inserts INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// Notes what the entries of a batch list and resolve, in log order; returns whether any did.
    @discardableResult
    static func note(_ entries: [RemoteEntry], _ connection: Connection) throws -> Bool {
        var noted = false
        for remote in entries where remote.overlap != nil || remote.entry.resolves != nil {
            noted = true
            if let resolved = remote.entry.resolves { try remove(resolved, connection) }
            guard let json = remote.overlap else { continue }
            let (overlap, swallowed) = Overlap.listings(in: json)
            if let overlap { try list(overlap, id: remote.position, of: remote, connection) }
            for update in swallowed { try list(update, id: update.id ?? update.position, of: remote, connection) }
        }
        return noted
    }

    /// Lists the edit between `remote` and the change `overlap` names, under `id`.
    private static func list(_ overlap: Overlap, id: Int64, of remote: RemoteEntry, _ connection: Connection) throws {
        // Any older listing between the same two replicas on the same column: the one the
        // server says this replaces, and one a replica that read the log while apart kept of
        // an entry in between, whose listing the server cleared when a later one replaced it.
        let column = overlap.column ?? remote.entry.column ?? ""
        // An insert's own value of the column is in its row.
        let editValue = remote.entry.operation == .insert
            ? remote.entry.payload.flatMap(SyncValueCoding.decodeRow)?[column].map(SyncValueCoding.encode)
            : remote.entry.payload
        try connection.statement("""
            DELETE FROM \(table) WHERE tbl = ?1 AND row_key = ?2 AND col = ?3
              AND ((edit_origin = ?4 AND other_origin = ?5) OR (edit_origin = ?5 AND other_origin = ?4))
            """).run([.text(remote.entry.table), .text(remote.entry.key), .text(column), .text(remote.origin), .text(overlap.origin)])
        try connection.statement("INSERT OR REPLACE INTO \(table) (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").run([
            .integer(id), .text(remote.entry.table), .text(remote.entry.key), .text(column),
            overlap.base.map(SQLiteValue.text) ?? .null, .integer(remote.entry.clock.rawValue), .text(remote.origin),
            remote.uploadedBy.map(SQLiteValue.text) ?? .null, editValue.map(SQLiteValue.text) ?? .null,
            .integer(overlap.position), .integer(overlap.hlc), .text(overlap.origin), overlap.uploadedBy.map(SQLiteValue.text) ?? .null,
            overlap.value.map(SQLiteValue.text) ?? .null, .real(Date().timeIntervalSince1970),
            .integer(remote.entry.operation == .delete ? 1 : 0), .integer(overlap.deletesRow ? 1 : 0),
            id == remote.position ? .null : .integer(remote.position),
            .integer(remote.entry.operation == .insert && overlap.insertsRow ? 1 : 0),
        ])
    }

    /// Every edit listed, oldest first, as conflicts; `origin` is this replica's.
    static func all(origin: String?, _ connection: Connection) throws -> [SyncConflict] {
        guard try connection.tableExists(table) else { return [] }
        return try connection.statement("SELECT \(columns) FROM \(table) ORDER BY position").rows().compactMap { conflict($0, origin: origin) }
    }

    static func find(_ position: Int64, origin: String?, _ connection: Connection) throws -> SyncConflict? {
        guard try connection.tableExists(table) else { return nil }
        return try connection.statement("SELECT \(columns) FROM \(table) WHERE position = ?").rows([.integer(position)]).first.flatMap { conflict($0, origin: origin) }
    }

    /// The row key of an edit, as the server's log spells it.
    static func rowKey(_ position: Int64, _ connection: Connection) throws -> String? {
        try connection.scalar("SELECT row_key FROM \(table) WHERE position = ?", [.integer(position)])?.textValue
    }

    static func remove(_ position: Int64, _ connection: Connection) throws {
        guard try connection.tableExists(table) else { return }
        try connection.statement("DELETE FROM \(table) WHERE position = ?").run([.integer(position)])
    }

    /// The other change an entry's `overlap` names (``ConcurrentEditsSQL``).
    struct Overlap {
        var position: Int64
        var hlc: Int64
        var origin: String
        var uploadedBy: String?
        var value: String?
        var base: String?
        /// The column listed, when the entry names none (a delete's).
        var column: String?
        /// Whether the other change deleted the row.
        var deletesRow: Bool
        /// Whether the other change inserted the row.
        var insertsRow: Bool
        /// The listing's id when it is not the position of an entry (an insert's further columns).
        var id: Int64?
        /// What an entry's `overlap` lists: the change it met (none once the server took that
        /// listing out), and for a delete's entry the other columns' updates it swallowed
        /// (`also`), each listed under the update's own position.
        static func listings(in json: String) -> (overlap: Overlap?, swallowed: [Overlap]) {
            guard case .object(let members)? = JSONValue(parsing: json) else { return (nil, []) }
            let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
            let swallowed: [Overlap] = if case .array(let updates)? = fields["also"] { updates.compactMap(Overlap.init) } else { [] }
            return (Overlap(fields), swallowed)
        }

        private init?(_ value: JSONValue) {
            guard case .object(let members) = value else { return nil }
            self.init(Dictionary(members, uniquingKeysWith: { first, _ in first }))
        }

        private init?(_ fields: [String: JSONValue]) {
            func text(_ name: String) -> String? { if case .string(let value)? = fields[name] { value } else { nil } }
            func integer(_ name: String) -> Int64? { if case .integer(let value)? = fields[name] { value } else { nil } }
            guard let position = integer("position"), let hlc = integer("hlc"), let origin = text("origin") else { return nil }
            (self.position, self.hlc, self.origin) = (position, hlc, origin)
            (uploadedBy, value, base) = (text("by"), text("value"), text("base"))
            (column, deletesRow, insertsRow) = (text("col"), text("op") == "delete", text("op") == "insert")
            id = integer("id")
        }
    }

    /// A row of the table as a conflict: the later of the two changes won, as on every replica.
    private static func conflict(_ row: [SQLiteValue], origin: String?) -> SyncConflict? {
        guard case .integer(let position) = row[0], case .text(let table) = row[1], case .text(let key) = row[2], case .text(let column) = row[3],
              case .integer(let editHLC) = row[5], case .text(let editOrigin) = row[6],
              case .integer(let otherPosition) = row[9], case .integer(let otherHLC) = row[10], case .text(let otherOrigin) = row[11]
        else { return nil }
        let editPosition: Int64 = if case .integer(let entry) = row[17] { entry } else { position }
        let edit = (side: SyncConflict.Edit(position: editPosition, origin: editOrigin, uploadedBy: row[7].textValue, stampedAt: date(editHLC), deletesRow: row[15] == .integer(1)),
                    stamp: Stamp(clock: HybridLogicalClock(rawValue: editHLC), origin: editOrigin), value: row[8].textValue)
        let other = (side: SyncConflict.Edit(position: otherPosition, origin: otherOrigin, uploadedBy: row[12].textValue, stampedAt: date(otherHLC), deletesRow: row[16] == .integer(1)),
                     stamp: Stamp(clock: HybridLogicalClock(rawValue: otherHLC), origin: otherOrigin), value: row[13].textValue)
        // A delete stands against an update whatever the stamps; between updates, the later.
        let editWins = edit.side.deletesRow || (!other.side.deletesRow && edit.stamp > other.stamp)
        let (winner, loser) = editWins ? (edit, other) : (other, edit)
        let detected: Double = if case .real(let seconds) = row[14] { seconds } else { 0 }
        let inserts = row[18] == .integer(1)
        let decoded = { (text: String?) in text.flatMap(SyncValueCoding.decode) }
        return SyncConflict(
            id: position, kind: .concurrentEdit, position: position >= ConcurrentEditsSQL.firstDerivedID ? editPosition : position, table: table, key: SyncValueCoding.decodeKey(key) ?? [],
            operation: inserts ? .insert : .update, column: column, row: nil, origin: loser.side.origin, uploadedBy: loser.side.uploadedBy,
            isLocal: loser.side.origin == origin,
            rule: winner.side.deletesRow
                ? "deleted on one replica while another changed it, neither having seen the other's change; the delete stands"
                : inserts ? "inserted on two replicas with different values, neither having seen the other's insert; the later insert stands"
                : "changed on two replicas, neither having seen the other's change; the later change stands",
            collidedWith: "the \(winner.side.deletesRow ? "delete" : inserts ? "insert" : "update") from replica \(winner.side.origin)" + (winner.side.uploadedBy.map { " (role \($0))" } ?? ""),
            detectedAt: Date(timeIntervalSince1970: detected),
            base: decoded(row[4].textValue), winner: decoded(winner.value), loser: decoded(loser.value),
            winningEdit: winner.side, losingEdit: loser.side
        )
    }

    /// The wall-clock time of a stamp.
    private static func date(_ hlc: Int64) -> Date {
        Date(timeIntervalSince1970: Double(hlc >> 16) / 1000)
    }
}
#endif
