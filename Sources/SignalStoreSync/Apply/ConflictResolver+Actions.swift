#if SIGNALSTORE_SYNC
import SignalStore

/// The schema's foreign key actions under a delete from the server's log: they act on the rows
/// as the log has them, and what they do becomes the server state.
///
/// Every replica that applies the log in order sees a parent's delete set the references to it
/// to `NULL` (`ON DELETE SET NULL`), though no entry of the log names those changes. A replica
/// with pending changes of such a referencing row must see the same: the row is set aside to
/// its server state under the delete (``pendingServerReferences(to:through:)``), and what the
/// action wrote is recorded as the server state of the row's columns
/// (``recordingActions(of:key:_:)``), so that setting the row aside again later brings back
/// what the log made of it, not the reference from before the delete.
extension ConflictResolver {
    /// Runs `delete` (the physical delete of the row `key` of `table`, from the server's log)
    /// and records the columns of other rows that the foreign key actions changed meanwhile
    /// as their server state (``StampTable/recordAction(_:_:column:value:_:)``).
    ///
    /// Only for tables another synced table references with an action that writes a column;
    /// a cascading delete of the referencing rows is not recorded (their insert registers still
    /// say they exist in the server state).
    func recordingActions(of table: CapturedTable, key: String, _ delete: () throws -> Void) throws {
        let acting = tables.foreignKeys.contains { $0.parent == table.name && [.setNull, .setDefault].contains($0.onDelete) }
        guard acting else { return try delete() }
        let before = try Journal.highestSeq(connection)
        try delete()
        // The delete's own entry alone: no row referenced it, and the journal need not be read.
        guard try Journal.highestSeq(connection) > before + 1 else { return }
        let entries = try Journal.entries(after: before, connection).filter { $0.operation == .update }
        guard !entries.isEmpty else { return }
        let keys = try Journal.keysAtWrite(entries, keyColumns: { tables.byName[$0]?.primaryKey }, connection)
        for entry in entries {
            guard let column = entry.column, let rowKey = keys[entry.seq].map(SyncValueCoding.encodeKey) else { continue }
            guard entry.table != table.name || rowKey != key else { continue }
            try StampTable.recordAction(entry.table, rowKey, column: column, value: SyncValueCoding.encode(entry.newValue ?? .null), connection)
        }
    }

    /// Rows with pending changes whose server state references `row` of `table` through one of
    /// `foreignKeys`, though the row here does not (this replica deleted it, or moved the
    /// reference): set aside, they hold the reference when the log's delete of `row` comes,
    /// and its action acts on them as on every other replica.
    ///
    /// Each with its pending insert, delete and referencing columns: what makes the row here
    /// differ from the server state where the action reads it. Only pending rows are read, so
    /// an empty outbox costs one query.
    func pendingServerReferences(to row: [String: SQLiteValue], through foreignKeys: [ForeignKey]) throws -> [PendingRow] {
        var pending: [PendingRow] = []
        for foreignKey in foreignKeys where [.setNull, .setDefault].contains(foreignKey.onDelete) {
            guard let child = tables.byName[foreignKey.child] else { continue }
            let values = foreignKey.referenced.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for encoded in try Outbox.keys(of: child.name, connection) {
                guard let server = try StampTable.serverRow(child.name, encoded, connection),
                      foreignKey.columns.map({ server[$0] ?? .null }) == values,
                      let key = SyncValueCoding.decodeKey(encoded) else { continue }
                let among: [Register] = [.insert, .delete] + foreignKey.columns.map(Register.column)
                let states = try StampTable.states(child.name, encoded, connection)
                let registers = among.filter { states[$0]?.isPending(origin: origin) == true }
                if !registers.isEmpty { pending.append(PendingRow(table: child, key: key, registers: registers)) }
            }
        }
        return pending
    }

    /// Confirms this replica's entries through outbox seq `seq` (``StampTable/confirmUploaded(through:origin:_:)``),
    /// and records what each of its deletes among them does in the log to the rows that
    /// reference the deleted row there.
    ///
    /// Where a delete was made, the rows referencing it were set to `NULL` by its `ON DELETE
    /// SET NULL`, and those changes went up as this replica's own. A row can reference it in
    /// the log and not here, though: a pending change of its reference lost to the log after
    /// the delete was made, and its server state went back to the deleted row (set to `NULL`
    /// here by ``afterParentsDeleted(_:of:)``, as the parent was gone). Every replica that
    /// applies the delete from the log sets the reference to `NULL` and records it
    /// (``recordingActions(of:key:_:)``); this replica records it once its delete passes in the
    /// log. Left out, its server state kept the deleted row's key, and a later insert of the
    /// row from the log took that reference and was refused here only (chaos seed 183 with
    /// faults).
    ///
    /// Each delete is confirmed with the entries before it, and its action recorded, before the
    /// entries after it: a later insert of the same row in the run (deleted and made again) must
    /// not hide the delete, which the log applies first (chaos seed 106 with faults: looked for
    /// after the whole run, the row was there again, and nothing was recorded).
    func confirmUploaded(through seq: Int64) throws {
        for delete in try Outbox.deletes(through: seq, of: parentsWithSetNull, connection) {
            try confirmUploaded(through: delete.seq, recordingActionOf: delete)
        }
        try StampTable.confirmUploaded(through: seq, origin: origin, connection)
    }

    /// Confirms this replica's entries through outbox seq `seq`, the last of them `delete`, and
    /// records what the delete does in the log to the rows that reference the deleted row there.
    private func confirmUploaded(through seq: Int64, recordingActionOf delete: (table: String, key: String, seq: Int64)) throws {
        guard let table = tables.byName[delete.table], let row = try StampTable.serverRow(delete.table, delete.key, connection) else {
            return try StampTable.confirmUploaded(through: seq, origin: origin, connection)
        }
        try StampTable.confirmUploaded(through: seq, origin: origin, connection)
        guard try StampTable.serverRow(table.name, delete.key, connection) == nil else { return }
        try recordSetNull(ofDeleted: row, in: table)
    }

    /// Records what deleting `row` (as the log had it) of `table` makes of the rows that
    /// reference it through each `ON DELETE SET NULL` foreign key.
    private func recordSetNull(ofDeleted row: [String: SQLiteValue], in table: CapturedTable) throws {
        for foreignKey in tables.foreignKeys where foreignKey.onDelete == .setNull && foreignKey.parent == table.name {
            let references = foreignKey.referenced.map { row[$0] ?? .null }
            if !references.contains(.null) { try recordSetNull(foreignKey, referencing: [references]) }
        }
    }

    /// The tables whose deletes set references to `NULL`.
    private var parentsWithSetNull: Set<String> {
        Set(tables.foreignKeys.filter { $0.onDelete == .setNull }.map(\.parent))
    }

    /// Records `NULL` as the server state of the referencing columns of each row whose server
    /// state references one of `references` through `foreignKey`: one pass over the child
    /// table's registers for all of them.
    private func recordSetNull(_ foreignKey: ForeignKey, referencing references: Set<[SQLiteValue]>) throws {
        guard !references.isEmpty, let column = foreignKey.columns.first else { return }
        let candidates = try StampTable.serverReferenceCandidates(foreignKey.child, column: column, values: Set(references.map { $0[0] }), connection)
        for key in candidates {
            guard let server = try StampTable.serverRow(foreignKey.child, key, connection),
                  references.contains(foreignKey.columns.map({ server[$0] ?? .null })) else { continue }
            var recorded: [String] = []
            for column in foreignKey.columns where try StampTable.recordAction(foreignKey.child, key, column: column, value: SyncValueCoding.encode(.null), connection) {
                recorded.append(column)
            }
            try clear(recorded, of: foreignKey.child, key)
        }
    }

    /// Sets `columns` of the row `key` (encoded) of `table` to `NULL` here where their
    /// registers, just recorded with no change of this replica's own pending, decide the row: it is
    /// here, and its insert as this replica has it is not later than them. The row here may
    /// still hold the reference: this replica deleted the parent before the row referenced it
    /// here, which the log puts the other way round (chaos seed 36 with faults: the order kept
    /// its customer on the replica whose delete of the customer cleared it everywhere else).
    /// One way there: the foreign key references a UNIQUE column, not the parent's key, and
    /// this replica deleted the parent and gave its value to another row (both pending) before
    /// another replica's earlier move onto the value came; nothing failed here, and only this
    /// write, once the delete is confirmed, clears the reference here as the log does
    /// everywhere (`OwnDeleteServerStateTests`).
    private func clear(_ columns: [String], of table: String, _ key: String) throws {
        guard !columns.isEmpty, let child = tables.byName[table], let values = SyncValueCoding.decodeKey(key) else { return }
        let states = try StampTable.states(table, key, connection)
        guard let inserted = states[.insert]?.current.stamp else { return }
        let deciding = columns.filter { column in states[.column(column)].map { $0.current.stamp >= inserted } ?? false }
        guard !deciding.isEmpty else { return }
        try writeColumns(PendingRow(table: child, key: values, registers: deciding.map(Register.column)), from: Dictionary(uniqueKeysWithValues: deciding.map { ($0, SQLiteValue.null) }))
    }

    /// A delete from the log of a row that is not here, because this replica's own delete of
    /// it is pending: where the log puts it, the row is deleted (its delete is later than its
    /// insert there) and its `SET NULL` acts on every row that references it in the log's rows.
    /// Those are recorded as on every replica that deletes the row (``recordSetNull(_:referencing:)``);
    /// the rows here no longer reference it. Left out, a row whose server state referenced it
    /// kept the reference on this replica only (chaos seed 36 with faults).
    ///
    /// - Parameter before: The row as the log had it before the delete; `nil` when it had none.
    func recordActionsOfDeleteNotHere(_ table: CapturedTable, key: String, before: [String: SQLiteValue]?) throws {
        guard let before, try StampTable.serverRow(table.name, key, connection) == nil else { return }
        try recordSetNull(ofDeleted: before, in: table)
    }

    /// `values` with each reference to a parent row that this replica deleted set to `NULL`,
    /// where the foreign key says `ON DELETE SET NULL`, as the parent's delete does wherever it
    /// is applied: a parent that is gone here, or one whose delete here is pending though the
    /// row is here again (inserted after the delete).
    ///
    /// A delete from the log has recorded that in the server state already
    /// (``recordingActions(of:key:_:)``). This replica's own delete, still pending, has not:
    /// the log does not hold it yet, and its action becomes the server state when the cursor
    /// passes it (``confirmUploaded(through:)``). Until then the row here takes the `NULL`.
    /// (With the parent inserted again, the row kept its reference here only: chaos seed 106
    /// with faults, where a pending move of the row lost and the row went back to the server
    /// state, which named the parent that the replica's pending delete removes in the log.)
    func afterParentsDeleted(_ values: [String: SQLiteValue], of table: CapturedTable) throws -> [String: SQLiteValue] {
        var result = values
        for foreignKey in tables.foreignKeys where foreignKey.child == table.name && foreignKey.onDelete == .setNull {
            guard let parent = tables.byName[foreignKey.parent] else { continue }
            let references = foreignKey.columns.map { values[$0] ?? .null }
            guard !references.contains(.null) else { continue }
            let here = try keys(of: parent, where: foreignKey.referenced, are: references)
            guard try here.isEmpty || here.contains(where: { try deletedPendingHere(parent, SyncValueCoding.encodeKey($0)) }) else { continue }
            for column in foreignKey.columns { result[column] = .null }
        }
        return result
    }

    /// Whether this replica's own delete of the row `key` (encoded) of `table` is pending and
    /// later than the row's insert as the log has it: in the log the delete comes after
    /// everything the server state holds, removes the row there and sets its references to
    /// `NULL`, even if the row is here again.
    private func deletedPendingHere(_ table: CapturedTable, _ key: String) throws -> Bool {
        guard let delete = try StampTable.state(table.name, key, .delete, connection), delete.isPending(origin: origin) else { return false }
        guard let inserted = try StampTable.state(table.name, key, .insert, connection)?.server?.stamp else { return true }
        return delete.current.stamp > inserted
    }

    /// Whether deletes of `table` set references to `NULL`.
    func setsNullOnDelete(_ table: String) -> Bool {
        parentsWithSetNull.contains(table)
    }
}
#endif
