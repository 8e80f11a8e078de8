#if SIGNALSTORE_SYNC
import SignalStore

/// Reading a batch's entries: which table and row each names, and which of them apply as one
/// row change.
extension RemoteApplier {
    /// `entries` in runs that are applied as one: one statement's updates of a row (one
    /// origin, consecutive origin seqs, one row, each column once, no key column) are one
    /// `UPDATE`, as they were written, since each alone can break a rule the statement keeps (a
    /// composite foreign key moved to another parent, a CHECK that reads two columns). Every
    /// other entry is a run of its own. The runs depend only on the entries, so every replica
    /// applies the same ones.
    ///
    /// Each run is a slice of `entries`: no entry is copied.
    func rowChanges(_ entries: [RemoteEntry]) -> [RowChange] {
        var changes: [RowChange] = []
        var start = entries.startIndex
        for index in entries.indices.dropFirst() where !joins(entries[index], entries[start..<index]) {
            changes.append(entries[start..<index])
            start = index
        }
        if !entries.isEmpty { changes.append(entries[start...]) }
        return changes
    }

    private func joins(_ next: RemoteEntry, _ change: RowChange) -> Bool {
        guard let last = change.last, next.entry.operation == .update, last.entry.operation == .update, next.unreadable == nil,
              next.entry.originSeq == last.entry.originSeq + 1, next.origin == last.origin,
              next.entry.table == last.entry.table, next.entry.key == last.entry.key,
              let column = next.entry.column, let table = tables.byName[next.entry.table] else { return false }
        // Every entry after the first was checked here as `next`: only the first and `next` can
        // move the row to another scope or change its key.
        let movesOrRekeys = { (remote: RemoteEntry) in
            !remote.carried.isEmpty || remote.previousScope != nil || table.primaryKey.contains(remote.entry.column ?? "")
        }
        return !movesOrRekeys(next) && !movesOrRekeys(change.firstEntry) && !change.contains { $0.entry.column == column }
    }

    /// The table an entry changes (its key checked as ``tableAndKey(of:)`` checks it).
    func table(of remote: RemoteEntry) throws -> CapturedTable {
        try tableAndKey(of: remote).0
    }

    /// The table an entry changes and its row's key.
    /// - Throws: ``SyncError/schemaMismatch`` for a table or key this database does not have;
    ///   ``UnreadableEntry`` for a key that is not one.
    func tableAndKey(of remote: RemoteEntry) throws -> (CapturedTable, [SQLiteValue]) {
        let entry = remote.entry
        guard let table = tables.byName[entry.table] else {
            throw SyncError(.schemaMismatch, "the server's log has changes to table '\(entry.table)', which this database does not sync; migrate it to the same schema as the other replicas, or sync with the same --table list everywhere", table: entry.table)
        }
        guard let key = SyncValueCoding.decodeKey(entry.key) else { throw UnreadableEntry(remote: remote, reason: "its key is not a JSON array of values") }
        guard key.count == table.primaryKey.count else {
            throw SyncError(.schemaMismatch, "a change to '\(entry.table)' from replica \(remote.origin) names its row by a key that does not fit this table's primary key (\(table.primaryKey.joined(separator: ", "))); the replicas' schemas differ: migrate them to the same version", table: entry.table)
        }
        return (table, key)
    }
}

/// One row change of a batch (``RemoteApplier/rowChanges(_:)``): one entry, or one statement's
/// updates of a row, as a slice of the batch's entries. Never empty.
typealias RowChange = ArraySlice<RemoteEntry>

extension ArraySlice<RemoteEntry> {
    /// The change's first entry.
    var firstEntry: RemoteEntry { self[startIndex] }
    /// The change's last entry.
    var lastEntry: RemoteEntry { self[index(before: endIndex)] }
}
#endif
