/// The identity map: one live instance per (table, row) while anything holds it. Objects are
/// held weakly, so released objects are not kept alive by the store. Used under the database
/// lock.
final class ModelRegistry {
    private struct RowKey: Hashable {
        let table: String
        let rowID: Int64
    }

    private struct Entry {
        weak var object: (any PersistentModel)?
    }

    private var entries: [RowKey: Entry] = [:]
    private var checkedTypes: Set<ObjectIdentifier> = []

    /// Whether no object is registered (entries of released objects count until pruned, so
    /// this errs on the side of reading the journal).
    var isEmpty: Bool {
        entries.isEmpty
    }

    func object(table: String, rowID: Int64) -> (any PersistentModel)? {
        entries[RowKey(table: table, rowID: rowID)]?.object
    }

    /// Files `object` as the live instance of the row.
    /// - Returns: The object it displaces: a live object of a row that was deleted by another
    ///   connection in a commit not yet read, whose rowid is now taken again. Its row is gone,
    ///   so the caller completes it.
    @discardableResult
    func register(_ object: any PersistentModel, table: String, rowID: Int64) -> (any PersistentModel)? {
        let displaced = self.object(table: table, rowID: rowID).flatMap { $0 === object ? nil : $0 }
        if entries.count >= pruneThreshold {
            entries = entries.filter { $0.value.object != nil }
            pruneThreshold = max(64, entries.count * 2)
        }
        entries[RowKey(table: table, rowID: rowID)] = Entry(object: object)
        if let displaced, let store = displaced._$model.managedStore { displaced._$model.link = .deleted(store) }
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
        unregister(table: table, rowID: oldRowID)
        let displaced = register(object, table: table, rowID: newRowID)
        if let store = object._$model.managedStore { object._$model.link = .managed(store, rowID: newRowID) }
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

    /// Whether `type` was already checked against its table.
    func needsSchemaCheck(_ type: any PersistentModel.Type) -> Bool {
        checkedTypes.insert(ObjectIdentifier(type)).inserted
    }

    func forgetSchemaCheck(_ type: any PersistentModel.Type) {
        checkedTypes.remove(ObjectIdentifier(type))
    }

    /// Applies committed journal entries to live objects: stores the new values now (under the
    /// database lock) and returns the notifications to deliver later, one per changed
    /// (object, column) with its final value, in the order first changed.
    func apply(_ changes: [Change], alsoNotify committed: [ModelTransaction.ColumnChange]) -> [ChangePublisher.Item] {
        var order: [ChangedColumn] = []
        var seen: Set<ChangedColumn> = []
        var deleted: [any PersistentModel] = []
        func note(_ object: any PersistentModel, _ index: Int) {
            let key = ChangedColumn(object: object, column: index)
            if seen.insert(key).inserted { order.append(key) }
        }
        // Columns the committing transaction changed already hold their final values; their
        // journal entries are not applied again (that would step through intermediate values).
        let changedByTransaction = Set(committed.map { ChangedColumn(object: $0.object, column: $0.column) })
        let replaced = Self.replacedDeletes(in: changes)
        for (offset, change) in changes.enumerated() {
            guard let object = object(table: change.table, rowID: change.rowID) else { continue }
            switch change.operation {
            case .update:
                guard let column = change.column, let value = change.newValue else { continue }
                let sql = ModelSQL.of(type(of: object))
                let index = sql.index(ofColumn: column)
                if let index, !changedByTransaction.contains(ChangedColumn(object: object, column: index)), object._$apply(column: index, value: value) {
                    note(object, index)
                }
                let movesRow = column == "rowid" || index == sql.primaryKeyIndex
                if movesRow, case .integer(let newRowID) = value, newRowID != change.rowID {
                    if let displaced = move(object, table: change.table, from: change.rowID, to: newRowID) { deleted.append(displaced) }
                }
            case .delete where replaced.contains(offset):
                continue   // the object takes the new row from the insert that follows
            case .delete:
                unregister(table: change.table, rowID: change.rowID)
                if let store = object._$model.managedStore { object._$model.link = .deleted(store) }
                deleted.append(object)
            case .insert:
                // A live object for the inserted rowid: its row was replaced. Take the new row.
                let sql = ModelSQL.of(type(of: object))
                for (column, value) in change.row ?? [:] {
                    guard let index = sql.index(ofColumn: column) else { continue }
                    if object._$apply(column: index, value: value) { note(object, index) }
                }
            }
        }
        for change in committed where change.object._$value(column: change.column) != change.original {
            note(change.object, change.column)
        }
        var items: [ChangePublisher.Item] = order.map { changed in
            let object = changed.object
            let value = object._$value(column: changed.column)
            return .notification { object._$willChange(column: changed.column); object._$model.emit(column: changed.column, value: value) }
        }
        items += deleted.map { object in .notification { object._$model.completeAll() } }
        return items
    }
}

/// One column of one object, compared by object identity.
struct ChangedColumn: Hashable {
    let object: any PersistentModel
    let column: Int

    static func == (lhs: ChangedColumn, rhs: ChangedColumn) -> Bool {
        lhs.object === rhs.object && lhs.column == rhs.column
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
        hasher.combine(column)
    }
}

extension ModelState {
    /// The store, while managed or deleted.
    var managedStore: Store? {
        switch link {
        case .managed(let store, _), .deleted(let store): return store
        case .unmanaged: return nil
        }
    }
}
