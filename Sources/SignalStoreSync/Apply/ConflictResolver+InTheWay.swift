#if SIGNALSTORE_SYNC
import SignalStore

/// What is in a downloaded change's way: this replica's pending rows that reference the row it
/// deletes or re-keys, that hold the UNIQUE values it takes, that it refers to as parents, or
/// whose columns it changes; and every pending row, in the order they were first changed.
extension ConflictResolver {
    /// Rows of pending changes that reference the row `remote` deletes or changes the key of.
    func pendingReferences(to remote: RemoteEntry) throws -> [PendingRow] {
        let entry = remote.entry
        guard entry.operation != .insert, let table = tables.byName[entry.table] else { return [] }
        let columns = entry.operation == .update ? entry.column.map { [$0] } ?? [] : nil
        // Most changes touch nothing another row references: no row to read then.
        let foreignKeys = try referencing(table, through: columns)
        guard !foreignKeys.isEmpty, let key = SyncValueCoding.decodeKey(entry.key), let row = try localRow(table, key) else { return [] }
        let here = try pendingReferences(to: row, through: foreignKeys)
        guard entry.operation == .delete else { return here }
        let names = Set(here.map(\.name))
        return try here + pendingServerReferences(to: row, through: foreignKeys).filter { !names.contains($0.name) }
    }

    /// The foreign keys to `table` that reference any of `columns` (`nil`: any foreign key).
    func referencing(_ table: CapturedTable, through columns: [String]?) throws -> [ForeignKey] {
        tables.foreignKeys.filter { foreignKey in
            foreignKey.parent == table.name && (columns.map { !Set($0).isDisjoint(with: foreignKey.referenced) } ?? true)
        }
    }

    /// Rows of pending changes (an insert, or a change of the referencing columns) that
    /// reference `row` of `table` by a foreign key to any of `columns` (`nil`: any foreign key).
    func pendingReferences(to table: CapturedTable, row: [String: SQLiteValue], through columns: [String]?) throws -> [PendingRow] {
        try pendingReferences(to: row, through: referencing(table, through: columns))
    }

    /// Rows of pending changes (an insert, or a change of the referencing columns) that
    /// reference `row` by one of `foreignKeys`.
    private func pendingReferences(to row: [String: SQLiteValue], through foreignKeys: [ForeignKey]) throws -> [PendingRow] {
        var pending: [PendingRow] = []
        for foreignKey in foreignKeys {
            guard let child = tables.byName[foreignKey.child] else { continue }
            let values = foreignKey.referenced.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for childKey in try keys(of: child, where: foreignKey.columns, are: values) {
                if let found = try pendingRow(child, childKey, among: foreignKey.columns.map(Register.column)) { pending.append(found) }
            }
        }
        return pending
    }

    /// The pending changes that made `remote` fail with `error`.
    func blockers(of remote: RemoteEntry, failedWith error: SQLiteError) throws -> [PendingRow] {
        guard let table = tables.byName[remote.entry.table], let key = SyncValueCoding.decodeKey(remote.entry.key) else { return [] }
        switch error.extended {
        case SQLiteError.constraintUnique, SQLiteError.constraintPrimaryKey:
            return try uniqueBlockers(remote, table, key)
        case SQLiteError.constraintForeignKey:
            return try deletedParents(remote, table, key)
        case SQLiteError.constraintCheck, SQLiteError.constraintNotNull:
            return try pendingColumns(remote, table, key)
        default:
            return []
        }
    }

    /// Rows of pending changes that hold the values of a unique key `remote` writes.
    func uniqueBlockers(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard let row = try intendedRow(remote, table, key) else { return [] }
        let uniqueColumns = table.uniqueKeys.filter { !$0.readsAnyColumn }.map(\.columns) + [table.primaryKey]
        var pending: [PendingRow] = []
        for columns in uniqueColumns where !columns.isEmpty {
            let values = columns.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for other in try keys(of: table, where: columns, are: values) where other != key {
                if let found = try pendingRow(table, other, among: columns.map(Register.column)) { pending.append(found) }
            }
        }
        return pending
    }

    /// Rows that `remote` references and this replica's pending delete removed.
    func deletedParents(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard remote.entry.operation != .delete, let row = try intendedRow(remote, table, key) else { return [] }
        return try parents(of: row, through: tables.foreignKeys.filter { $0.child == table.name }) { parent, values, states in
            guard states[.delete]?.isPending(origin: origin) == true, try keys(of: parent, where: parent.primaryKey, are: values).isEmpty,
                  try StampTable.serverRow(parent.name, SyncValueCoding.encodeKey(values), connection) != nil else { return nil }
            return [.delete]
        }
    }

    /// Rows this replica deleted and inserted again, which `remote` (an insert, or a new
    /// reference) makes a row reference.
    ///
    /// In the log, `remote` comes before the delete, whose `ON DELETE` action then acts on the
    /// row `remote` writes, on every other replica. Here the row came back before `remote`
    /// arrived, and nothing fails: set aside and applied again, delete first, the action acts
    /// here too (an order kept a customer that the other replicas had set to NULL; issue 39,
    /// report 1).
    func reinsertedParents(of remote: RemoteEntry) throws -> [PendingRow] {
        let entry = remote.entry
        guard entry.operation != .delete, let table = tables.byName[entry.table], let key = SyncValueCoding.decodeKey(entry.key) else { return [] }
        let foreignKeys = tables.foreignKeys.filter { foreignKey in
            foreignKey.child == table.name && (entry.column.map(foreignKey.columns.contains) ?? true)
        }
        guard !foreignKeys.isEmpty, let row = try intendedRow(remote, table, key) else { return [] }
        return try parents(of: row, through: foreignKeys) { parent, values, states in
            guard states[.delete]?.isPending(origin: origin) == true, states[.insert]?.isPending(origin: origin) == true,
                  try !keys(of: parent, where: parent.primaryKey, are: values).isEmpty else { return nil }
            return [.delete, .insert]
        }
    }

    /// The rows `row` refers to through `foreignKeys` (each to its parent's primary key) that
    /// `setAside` names registers of, given the parent's key and its registers' states here.
    private func parents(
        of row: [String: SQLiteValue], through foreignKeys: [ForeignKey],
        setAside: (CapturedTable, [SQLiteValue], [Register: RegisterState]) throws -> [Register]?
    ) throws -> [PendingRow] {
        var pending: [PendingRow] = []
        for foreignKey in foreignKeys {
            guard let parent = tables.byName[foreignKey.parent], foreignKey.referenced == parent.primaryKey else { continue }
            let values = foreignKey.columns.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            let states = try StampTable.states(parent.name, SyncValueCoding.encodeKey(values), connection)
            if let registers = try setAside(parent, values, states) { pending.append(PendingRow(table: parent, key: values, registers: registers)) }
        }
        return pending
    }

    /// The pending column changes of the row `remote` writes (a CHECK or NOT NULL rule can read
    /// the whole row).
    func pendingColumns(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard remote.entry.operation != .delete else { return [] }
        let columns = table.columns.filter { $0 != remote.entry.column }.map(Register.column)
        guard let found = try pendingRow(table, key, among: columns), !found.isWholeRow else { return [] }
        return [found]
    }

    /// Every row with pending changes, in the order this replica first changed them: for a
    /// conflict the precise rows cannot settle (setting one aside meets another pending change,
    /// as when a customer deleted here is restored while a new one here holds its email).
    ///
    /// A pending delete of a row the log never had sets nothing aside, unless the row is here
    /// again (inserted anew after the delete): left out, it kept a UNIQUE value the log's rows
    /// need, and a downloaded change was refused here only (chaos seed 7 with faults).
    func allPendingRows() throws -> [PendingRow] {
        try pendingRowsInOutboxOrder().filter { row in
            guard row.registers.contains(.delete) else { return true }
            return try StampTable.serverRow(row.table.name, row.encodedKey, connection) != nil || localRow(row.table, row.key) != nil
        }
    }

    /// Every row of the outbox with pending registers (sorted by name), in the order this
    /// replica first changed them.
    func pendingRowsInOutboxOrder() throws -> [PendingRow] {
        var rows: [PendingRow] = []
        for (name, encoded) in try Outbox.rows(connection) {
            guard let table = tables.byName[name], let key = SyncValueCoding.decodeKey(encoded) else { continue }
            let pending = try StampTable.states(name, encoded, connection).filter { $0.value.isPending(origin: origin) }.map(\.key)
            guard !pending.isEmpty else { continue }
            rows.append(PendingRow(table: table, key: key, registers: pending.sorted { $0.name < $1.name }))
        }
        return rows
    }

    /// The row's pending registers among `registers`, or the whole row if its insert is
    /// pending; `nil` when none is, or the server state is unknown.
    func pendingRow(_ table: CapturedTable, _ key: [SQLiteValue], among registers: [Register]) throws -> PendingRow? {
        let encoded = SyncValueCoding.encodeKey(key)
        let states = try StampTable.states(table.name, encoded, connection)
        if states[.insert]?.isPending(origin: origin) == true {
            return PendingRow(table: table, key: key, registers: [.insert])
        }
        let pending = registers.filter { states[$0]?.isPending(origin: origin) == true }
        guard !pending.isEmpty, try StampTable.serverRow(table.name, encoded, connection) != nil else { return nil }
        return PendingRow(table: table, key: key, registers: pending)
    }
}
#endif
