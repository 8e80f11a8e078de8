import SignalStore

/// A change from another replica, as read from the server's log.
struct RemoteEntry: Sendable, Equatable {
    /// Its position in the server's log.
    var position: Int64
    var origin: String
    var entry: SyncEntry

    var stamp: Stamp { Stamp(clock: entry.clock, origin: origin) }
}

/// Writes other replicas' changes into the local tables by the conflict rule (SyncDesign:
/// last writer wins per column by stamp; a delete wins over updates that arrive after it).
///
/// Runs inside the store's write transaction, so the writes are journaled and published like
/// any other: live objects and signals see each exactly once.
struct RemoteApplier {
    let tables: SyncedTables
    let connection: Connection

    /// Applies one entry; returns whether it changed a row.
    func apply(_ remote: RemoteEntry) throws -> Bool {
        let entry = remote.entry
        guard let table = tables.byName[entry.table] else {
            throw SyncError.schemaMismatch("the server's log has changes to table '\(entry.table)', which this database does not sync; migrate it to the same schema as the other replicas, or sync with the same --table list everywhere")
        }
        guard let key = SyncValueCoding.decodeKey(entry.key), key.count == table.primaryKey.count else {
            throw SyncError.schemaMismatch("a change to '\(entry.table)' from replica \(remote.origin) names its row by a key that does not fit this table's primary key (\(table.primaryKey.joined(separator: ", "))); the replicas' schemas differ: migrate them to the same version")
        }
        let rowID = try localRowID(key, in: table)
        let rowStamp = try ReplicaState.stamp(entry.table, entry.key, ReplicaState.rowMarker, connection)
        switch entry.operation {
        case .insert: return try applyInsert(remote, table, rowID, rowStamp)
        case .update: return try applyUpdate(remote, table, rowID, rowStamp)
        case .delete: return try applyDelete(remote, table, rowID, rowStamp)
        }
    }

    /// An insert starts a new incarnation of the row unless a later delete or insert is known;
    /// onto a row that exists, its columns merge one by one.
    private func applyInsert(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, _ rowStamp: ReplicaState.StoredStamp?) throws -> Bool {
        let entry = remote.entry
        guard let payload = entry.payload, let row = SyncValueCoding.decodeRow(payload) else {
            throw SyncError.server("the server's log holds an insert into '\(entry.table)' without a readable row (position \(remote.position)); the log was changed by hand")
        }
        try checkColumns(row.keys, of: table, remote)
        if let rowStamp, rowStamp.stamp > remote.stamp, rowStamp.isDeleted { return false }
        let isNewer = rowStamp.map { remote.stamp > $0.stamp } ?? true
        guard let rowID else {
            let columns = row.keys.sorted()
            try connection.statement("""
                INSERT INTO \(quotedIdentifier(table.name)) (\(columns.map(quotedIdentifier).joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                """).run(columns.map { row[$0] ?? .null })
            try ReplicaState.setRowStamp(remote.stamp, entry.table, entry.key, deleted: false, connection)
            return true
        }
        var changed = false
        for (column, value) in row.sorted(by: { $0.key < $1.key }) where try wins(remote.stamp, entry.table, entry.key, column, rowStamp) {
            try write(value, column, table, rowID)
            try ReplicaState.setStamp(remote.stamp, entry.table, entry.key, column, connection)
            changed = true
        }
        if isNewer { try ReplicaState.setStamp(remote.stamp, entry.table, entry.key, ReplicaState.rowMarker, connection) }
        return changed
    }

    /// An update of a row that is not here (deleted, or never arrived) is dropped: deletes win.
    private func applyUpdate(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, _ rowStamp: ReplicaState.StoredStamp?) throws -> Bool {
        let entry = remote.entry
        guard let column = entry.column, let payload = entry.payload, let value = SyncValueCoding.decode(payload) else {
            throw SyncError.server("the server's log holds an update of '\(entry.table)' without a readable column and value (position \(remote.position)); the log was changed by hand")
        }
        try checkColumns([column], of: table, remote)
        guard let rowID, try wins(remote.stamp, entry.table, entry.key, column, rowStamp) else { return false }
        try write(value, column, table, rowID)
        try ReplicaState.setStamp(remote.stamp, entry.table, entry.key, column, connection)
        return true
    }

    /// A delete ends the row unless an insert stamped after it re-created the row.
    private func applyDelete(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, _ rowStamp: ReplicaState.StoredStamp?) throws -> Bool {
        if let rowStamp, rowStamp.stamp > remote.stamp, !rowStamp.isDeleted || rowID == nil { return false }
        if let rowID {
            try connection.statement("DELETE FROM \(quotedIdentifier(table.name)) WHERE rowid = ?").run([.integer(rowID)])
        }
        try ReplicaState.setRowStamp(remote.stamp, remote.entry.table, remote.entry.key, deleted: true, connection)
        return rowID != nil
    }

    /// Whether `stamp` beats the stamp of `column`'s current value (its own, or the row's
    /// insert); the winning column stamp is recorded by the caller.
    private func wins(_ stamp: Stamp, _ table: String, _ key: String, _ column: String, _ rowStamp: ReplicaState.StoredStamp?) throws -> Bool {
        let current = try ReplicaState.stamp(table, key, column, connection)?.stamp ?? rowStamp?.stamp
        return current.map { stamp > $0 } ?? true
    }

    private func write(_ value: SQLiteValue, _ column: String, _ table: CapturedTable, _ rowID: Int64) throws {
        try connection.statement("UPDATE \(quotedIdentifier(table.name)) SET \(quotedIdentifier(column)) = ? WHERE rowid = ?")
            .run([value, .integer(rowID)])
    }

    private func localRowID(_ key: [SQLiteValue], in table: CapturedTable) throws -> Int64? {
        let condition = table.primaryKey.map { "\(quotedIdentifier($0)) IS ?" }.joined(separator: " AND ")
        let rows = try connection.statement("SELECT rowid FROM \(quotedIdentifier(table.name)) WHERE \(condition)").rows(key)
        guard case .integer(let rowID)? = rows.first?.first else { return nil }
        return rowID
    }

    private func checkColumns(_ columns: some Sequence<String>, of table: CapturedTable, _ remote: RemoteEntry) throws {
        let missing = columns.filter { !table.columns.contains($0) }.sorted()
        guard missing.isEmpty else {
            throw SyncError.schemaMismatch("replica \(remote.origin) wrote column\(missing.count == 1 ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", ")) of '\(table.name)', which this database does not have; migrate this database to the same schema version as the other replicas, then sync again")
        }
    }
}
