extension Store {
    /// Every entry the change feed keeps for `model`'s row, oldest first, from every writer,
    /// following the row back through changes of its `INTEGER PRIMARY KEY`.
    ///
    /// ```swift
    /// for change in try store.history(of: order) { print(change) }
    /// // #1 orders[42] insert {"id":42,"purchase_num":1,…}
    /// // #7 orders[42] update purchase_num: 1 → 3
    /// ```
    /// Entries that were pruned are not there; the history starts after the prune horizon.
    /// - Parameter model: An object of this store (inserted or fetched).
    /// - Throws: ``StoreError/notManaged(_:)`` for an object that is not in a store.
    public func history<Model: PersistentModel>(of model: Model) throws(StoreError) -> [Change] {
        guard let rowID = model._$model.rowID else {
            throw StoreError.notManaged("this \(Model.self) is not in a store, so it has no history; insert it first, or read the history of its table and row with history(table:rowID:)")
        }
        return try history(table: Model._$table, rowID: rowID)
    }

    /// Every entry the change feed keeps for one row, oldest first, from every writer.
    ///
    /// For a table with an `INTEGER PRIMARY KEY`, `rowID` is that key; the history follows the
    /// row back through changes of the key (the entries made under its earlier keys come
    /// first). A deleted row keeps its history: it ends with the delete.
    /// - Parameters:
    ///   - table: The table, as the schema spells it.
    ///   - rowID: The row's rowid (its `INTEGER PRIMARY KEY`, if it has one).
    /// - Throws: ``StoreError/invalidArgument(_:)`` for a table that does not exist.
    public func history(table: String, rowID: Int64) throws(StoreError) -> [Change] {
        try readJournal { connection in
            guard let schema = try self.schema.table(table, connection) else {
                throw StoreError.invalidArgument("there is no table \(table); give a table of this database (its name as the schema spells it)")
            }
            return try Journal.history(table: schema.name, rowID: rowID, keyColumn: schema.rowIDAlias, connection)
        }
    }

    /// Undoes the changes of the entries `seqs`, from every writer, as one new transaction:
    /// newest entry first, an update gets its old value back, an insert is deleted and a delete
    /// is inserted again with its whole row.
    ///
    /// The revert is an ordinary commit: it is journaled (so reverting it is a redo), live
    /// objects and every signal see it, and sync uploads it. Mark a point before a user action
    /// and undo the action with ``revert(after:overwritingLaterChanges:)``:
    /// ```swift
    /// let mark = try store.lastChangeSeq
    /// order.purchaseNum = 5
    /// order.status = "paid"
    /// try store.revert(after: mark)   // purchaseNum and status are back
    /// ```
    /// - Parameters:
    ///   - seqs: The entries to undo.
    ///   - overwritingLaterChanges: Whether to undo even when an entry after `seqs` changed a
    ///     row or column again (its change is then overwritten; a row deleted since stays
    ///     deleted). By default that is a conflict and nothing is written.
    /// - Returns: The entries the revert wrote, in seq order.
    /// - Throws: ``StoreError/revertConflict(reverting:laterChanges:)`` naming the later
    ///   entries; ``StoreError/changeFeedGap(since:prunedThrough:)`` when some of `seqs` were
    ///   pruned; ``StoreError/invalidArgument(_:)`` for seqs outside the feed, a range a
    ///   migration splits (schema changes are not in the feed) or a table that no longer
    ///   exists; SQLite's error when a constraint refuses the old values. Nothing is written
    ///   when it throws.
    @discardableResult
    public func revert(_ seqs: ClosedRange<Int64>, overwritingLaterChanges: Bool = false) throws(StoreError) -> [Change] {
        do {
            let checked = try checkedForRevert(seqs, overwritingLaterChanges: overwritingLaterChanges)
            return try writeTransaction { connection in
                try revert(seqs, overwritingLaterChanges: overwritingLaterChanges, checkedThrough: checked, connection)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Undoes every change after `seq` (a mark taken with ``lastChangeSeq``): the undo of
    /// everything written since. Nothing after `seq` writes nothing.
    /// - Parameters:
    ///   - seq: The last entry to keep.
    ///   - overwritingLaterChanges: As for ``revert(_:overwritingLaterChanges:)``; a range that
    ///     reaches the newest entry has no later entries, so it matters only when a writer
    ///     commits between the calls.
    /// - Returns: The entries the revert wrote, in seq order.
    /// - Throws: As ``revert(_:overwritingLaterChanges:)``.
    @discardableResult
    public func revert(after seq: Int64, overwritingLaterChanges: Bool = false) throws(StoreError) -> [Change] {
        do {
            let newest = try readJournal { connection in try Journal.highestSeq(connection) }
            let checked = seq < newest ? try checkedForRevert((seq + 1)...newest, overwritingLaterChanges: overwritingLaterChanges) : newest
            return try writeTransaction { connection in
                let last = try Journal.highestSeq(connection)
                guard seq < last else { return [] }
                return try revert((seq + 1)...last, overwritingLaterChanges: overwritingLaterChanges, checkedThrough: min(checked, last), connection)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// What ``revert(_:overwritingLaterChanges:)`` would write, without writing it (for
    /// `signalstore revert --dry-run` and the inspector's preview).
    ///
    /// The range is read and checked against every later entry on a reader, beside the writer.
    /// Only the statements themselves run on the writer, in a transaction that is rolled back,
    /// so the preview shows exactly what SQLite, the capture triggers and the foreign keys'
    /// actions would write, and holds the write lock no longer than the revert would.
    /// - Throws: As ``revert(_:overwritingLaterChanges:)``.
    package func revertPreview(_ seqs: ClosedRange<Int64>, overwritingLaterChanges: Bool = false) throws(StoreError) -> [Change] {
        struct Preview: Error { let entries: [Change] }
        do {
            let checked = try checkedForRevert(seqs, overwritingLaterChanges: overwritingLaterChanges)
            try writeTransaction { connection in
                throw Preview(entries: try revert(seqs, overwritingLaterChanges: overwritingLaterChanges, checkedThrough: checked, connection))
            }
            return []
        } catch let preview as Preview {
            return preview.entries
        } catch {
            throw StoreError(error)
        }
    }

    /// Checks `seqs` on a reader: that they can be reverted, and (unless overwriting) that no
    /// later entry changed their rows again. Returns the newest entry checked, so the writer
    /// checks only what committed after it.
    private func checkedForRevert(_ seqs: ClosedRange<Int64>, overwritingLaterChanges: Bool) throws -> Int64 {
        try readConnection { connection in
            let revert = try Revert(seqs, schema, connection)
            if !overwritingLaterChanges {
                let later = try revert.conflicts(after: seqs.upperBound, connection)
                if !later.isEmpty { throw StoreError.revertConflict(reverting: seqs, laterChanges: later) }
            }
            return try Journal.highestSeq(connection)
        }
    }

    /// Reverts `seqs` on the writer, in its open transaction; returns the entries written.
    /// Entries through `checkedThrough` were checked for conflicts on a reader already.
    private func revert(_ seqs: ClosedRange<Int64>, overwritingLaterChanges: Bool, checkedThrough: Int64, _ connection: Connection) throws -> [Change] {
        let revert = try Revert(seqs, schema, connection)
        if !overwritingLaterChanges {
            let later = try revert.conflicts(after: max(checkedThrough, seqs.upperBound), connection)
            if !later.isEmpty { throw StoreError.revertConflict(reverting: seqs, laterChanges: later) }
        }
        let before = try Journal.highestSeq(connection)
        try revert.apply(overwritingLaterChanges: overwritingLaterChanges, connection)
        return try Journal.entries(after: before, connection)
    }
}
