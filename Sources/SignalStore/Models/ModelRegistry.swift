import Foundation

/// The identity map: one live instance per (table, row) while anything holds it, and how far
/// the journal has been applied to them. Objects are held weakly, so released objects are not
/// kept alive by the store.
///
/// The store keeps it behind its own lock (``Store/registry``), taken after the writer's lock
/// when both are needed, so readers can file the objects they load without waiting for the
/// writer. Every committed batch comes in through one entry point, ``Locked/apply(_:)`` on the
/// locked registry: a commit that changes only ordinary columns holds the lock just to note the
/// commit and take a snapshot of the entries, and its values are stored after
/// (``applyValues(_:to:)``).
///
/// Its fields are `@exclusivity(unchecked)`: they are used only under the registry's lock
/// (``Locked``, not recursive), where no access overlaps another, so the runtime's check of
/// each access (some 40 instructions, several on every set) is left out.
final class ModelRegistry {
    /// A row of a table. Table names are compared by their UTF-8 bytes, as SQLite compares them
    /// (Unicode-aware `String` comparison costs more than the rest of a lookup), and only the
    /// rowid is hashed: a commit of many rows looks up every one of them.
    struct RowKey: Hashable {
        let table: String
        let rowID: Int64

        static func == (lhs: RowKey, rhs: RowKey) -> Bool {
            lhs.rowID == rhs.rowID && lhs.table.hasSameUTF8(as: rhs.table)
        }

        /// The rowid alone: hashing the table's bytes too cost more than the rest of a lookup,
        /// and live objects of different tables with the same rowid only share a bucket, where
        /// equality tells them apart.
        func hash(into hasher: inout Hasher) {
            hasher.combine(rowID)
        }
    }

    /// A filed object. Immutable, and a class, so the map of entries can be handed out as a
    /// snapshot (see ``entriesSnapshot``) and read without the lock, and copying the map when it
    /// changes next retains one reference per entry instead of copying weak references.
    final class Entry: Sendable {
        weak let object: (any PersistentModel)?
        /// The object's values reflect the journal up to here: it was loaded from a snapshot
        /// that included this entry, so applying entries up to it again would step through
        /// values it already holds.
        let currentThrough: Int64

        init(object: any PersistentModel, currentThrough: Int64) {
            self.object = object
            self.currentThrough = currentThrough
        }
    }

    @exclusivity(unchecked) private var entries: [RowKey: Entry] = [:]

    /// The last journal entry read (applied to the objects and queued for the feed).
    @exclusivity(unchecked) var lastSeenSeq: Int64 = 0
    /// Whether entries may exist after `lastSeenSeq` that were not read because nobody was
    /// listening; the next listener skips them.
    @exclusivity(unchecked) var isBehind = false

    /// The columns whose update moves an object, for every model type filed.
    @exclusivity(unchecked) private(set) var keyColumns = KeyColumns()

    /// The rows the batches applied recently changed, oldest first.
    @exclusivity(unchecked) private var recentBatches: [ChangedRows] = []
    /// How many rows `recentBatches` hold together.
    @exclusivity(unchecked) private var recentRowCount = 0
    /// Entries up to this seq are no longer in `recentBatches`.
    @exclusivity(unchecked) private var recentFloor: Int64 = 0

    /// Whether the row of an object loaded from a snapshot that includes the journal up to
    /// `seq` is current. Entries after `lastSeenSeq` are applied to the object later (those up
    /// to `seq` skipped); entries before it already went by, so the row must not have changed
    /// between the snapshot and `lastSeenSeq`.
    func isCurrent(table: String, rowID: Int64, snapshot seq: Int64) -> Bool {
        if seq >= lastSeenSeq { return true }
        guard !isBehind, seq >= recentFloor else { return false }
        let key = RowKey(table: table, rowID: rowID)
        return !recentBatches.contains { $0.lastSeq > seq && $0.contains(key) }
    }

    /// Marks a batch as read through its last seq, and keeps the rows it changed (built before
    /// taking the lock) for ``isCurrent(table:rowID:snapshot:)``; forgets the oldest batches
    /// past a bound (a snapshot older than what is kept then reloads its rows).
    func noteRead(_ batch: ChangedRows) {
        if batch.lastSeq > 0 { lastSeenSeq = batch.lastSeq }
        guard batch.count > 0 else { return }
        recentBatches.append(batch)
        recentRowCount += batch.count
        guard recentBatches.count > 64 || recentRowCount > 65_536 else { return }
        // Drop batches in groups, so a steady stream of commits does not shift the array at each.
        var dropping = 0
        while dropping < recentBatches.count - 1, recentBatches.count - dropping > 32 || recentRowCount > 65_536 {
            recentRowCount -= recentBatches[dropping].count
            recentFloor = recentBatches[dropping].lastSeq
            dropping += 1
        }
        recentBatches.removeFirst(dropping)
    }

    /// Files an object loaded from a snapshot (see ``isCurrent(table:rowID:snapshot:)``). When the journal
    /// was not being read, reading resumes after the snapshot, so nothing that changes the
    /// object afterwards is skipped.
    func file(_ object: any PersistentModel, table: String, rowID: Int64, snapshot seq: Int64) {
        if isBehind {
            lastSeenSeq = seq
            isBehind = false
        }
        register(object, table: table, rowID: rowID, currentThrough: seq)
    }

    /// Whether an object may still be alive: a small map is checked entry by entry (a store
    /// whose objects were all released then reads no journal entries for them), a large one
    /// is assumed to hold some.
    var mayHaveLiveObjects: Bool {
        guard entries.count <= 256 else { return true }
        return entries.values.contains { $0.object != nil }
    }

    /// The rowids of the live objects (of any table).
    var liveRowIDs: Set<Int64> {
        Set(entries.compactMap { $0.value.object == nil ? nil : $0.key.rowID })
    }

    func object(table: String, rowID: Int64) -> (any PersistentModel)? {
        entries[RowKey(table: table, rowID: rowID)]?.object
    }

    /// Files `object` as the live instance of the row.
    /// - Returns: The object it displaces: a live object of a row that was deleted by another
    ///   connection in a commit not yet read, whose rowid is now taken again. Its row is gone,
    ///   so the caller completes it.
    @discardableResult
    func register(_ object: any PersistentModel, table: String, rowID: Int64, currentThrough: Int64 = 0) -> (any PersistentModel)? {
        let displaced = self.object(table: table, rowID: rowID).flatMap { $0 === object ? nil : $0 }
        if entries.count >= pruneThreshold {
            entries = entries.filter { $0.value.object != nil }
            pruneThreshold = max(64, entries.count * 2)
        }
        entries[RowKey(table: table, rowID: rowID)] = Entry(object: object, currentThrough: currentThrough)
        keyColumns.note(type(of: object))
        if let displaced, let host = displaced._$model.host { displaced._$model.link = .deleted(host) }
        return displaced
    }

    /// The size at which released objects' entries are dropped next (amortized O(1)).
    private var pruneThreshold = 64

    /// The offsets of delete entries that an insert of the same row follows later in the same
    /// batch: a `REPLACE` (or a delete and insert in one transaction) of a row a live object
    /// keeps following, rather than a deletion that completes it.
    private static func replacedDeletes(in changes: [Change]) -> Set<Int> {
        var reinserted: Set<RowKey> = []
        var replaced: Set<Int> = []
        for (offset, change) in changes.enumerated().reversed() {
            let key = RowKey(table: change.table, rowID: change.rowID)
            switch change.operation {
            case .insert: reinserted.insert(key)
            case .delete: if reinserted.remove(key) != nil { replaced.insert(offset) }
            case .update: break
            }
        }
        return replaced
    }

    /// Re-files a live object whose row changed rowid.
    /// - Returns: The object it displaces, if any (see ``register(_:table:rowID:)``).
    private func move(_ object: any PersistentModel, table: String, from oldRowID: Int64, to newRowID: Int64) -> (any PersistentModel)? {
        let currentThrough = entries[RowKey(table: table, rowID: oldRowID)]?.currentThrough ?? 0
        unregister(table: table, rowID: oldRowID)
        let displaced = register(object, table: table, rowID: newRowID, currentThrough: currentThrough)
        if let host = object._$model.host { object._$model.link = .managed(host, rowID: newRowID) }
        return displaced
    }

    func unregister(table: String, rowID: Int64) {
        entries[RowKey(table: table, rowID: rowID)] = nil
    }

    /// The number of entries, including those of released objects not yet pruned (for tests
    /// that check the map does not grow).
    var entryCount: Int {
        entries.count
    }

    /// Every live object, for closing.
    var liveObjects: [any PersistentModel] {
        entries.values.compactMap(\.object)
    }

    /// Applies committed journal entries to live objects, under the lock (for
    /// ``Locked/apply(_:)``, the one entry point): stores the new values now and returns
    /// the notifications to deliver later, one per changed (object, column) with its final
    /// value, in the order first changed. A column that ends where it started (set and set back
    /// in one transaction) notifies nothing.
    func applyHoldingLock(_ changes: [Change]) -> [ModelNotification] {
        var values = FinalColumnValues()
        var deleted: [any PersistentModel] = []
        let replaced = Self.replacedDeletes(in: changes)
        for (offset, change) in changes.enumerated() {
            let key = RowKey(table: change.table, rowID: change.rowID)
            guard let entry = entries[key], let object = entry.object, change.seq > entry.currentThrough else { continue }
            switch change.operation {
            case .update:
                guard let column = change.column, let value = change.newValue else { continue }
                let index = values.set(object, column: column, value)
                let movesRow = column == "rowid" || index == values.sql(of: object).primaryKeyIndex
                if movesRow, case .integer(let newRowID) = value, newRowID != change.rowID {
                    if let displaced = move(object, table: change.table, from: change.rowID, to: newRowID) { deleted.append(displaced) }
                }
            case .delete where replaced.contains(offset):
                continue   // the object takes the new row from the insert that follows
            case .delete:
                unregister(table: change.table, rowID: change.rowID)
                if let host = object._$model.host { object._$model.link = .deleted(host) }
                deleted.append(object)
            case .insert:
                // A live object for the inserted rowid: its row was replaced. Take the new row.
                values.set(object, row: change.row ?? [:])
            }
        }
        return values.store() + deleted.map(ModelNotification.ended)
    }

    /// The filed objects as they are now: a copy that costs nothing until the registry changes
    /// next, for ``applyValues(_:to:)`` to read after the lock is released.
    var entriesSnapshot: [RowKey: Entry] {
        entries
    }

    /// Applies a batch that changes no object's identity (no delete, no key change; see
    /// ``KeyColumns``) to the objects of a snapshot of the entries taken, under the lock, with
    /// the batch's ``noteRead(_:)``, without holding the lock: readers filing objects meanwhile
    /// do not wait for it. Such a batch moves and completes no object, so the registry is left
    /// as it is; an object filed after the snapshot either includes the batch (its
    /// `currentThrough`) or, loaded from a snapshot before it, is reloaded by its reader.
    static func applyValues(_ changes: [Change], to entries: [RowKey: Entry]) -> ModelNotifications {
        if changes.count == 1, changes[0].operation == .update { return applyUpdate(changes, to: entries) }
        var values = FinalColumnValues()
        var previous: (key: RowKey, entry: Entry?)?
        for change in changes {
            let key = RowKey(table: change.table, rowID: change.rowID)
            // Consecutive entries of one row (several columns, or one set many times) look it up once.
            let found = previous?.key == key ? previous?.entry : entries[key]
            previous = (key, found)
            guard let entry = found, change.seq > entry.currentThrough, let object = entry.object else { continue }
            switch change.operation {
            case .update:
                if let column = change.column, let value = change.newValue { values.set(object, column: column, value) }
            case .insert:
                values.set(object, row: change.row ?? [:])
            case .delete:
                preconditionFailure("a batch with a delete changes identities; apply it under the lock")
            }
        }
        return .many(values.store())
    }

    /// ``applyValues(_:to:)`` for a commit of one update (a model's set): its value is final, so
    /// it is stored directly. The entry is read where it lies in `changes`, not copied out.
    private static func applyUpdate(_ changes: [Change], to entries: [RowKey: Entry]) -> ModelNotifications {
        guard let entry = entries[RowKey(table: changes[0].table, rowID: changes[0].rowID)], changes[0].seq > entry.currentThrough,
              let object = entry.object, let column = changes[0].column, let value = changes[0].newValue,
              let index = ModelSQL.of(type(of: object)).index(ofColumn: column),
              object._$apply(column: index, value: value)
        else { return .none }
        return .one(.changed(object, column: index, value: value))
    }
}
