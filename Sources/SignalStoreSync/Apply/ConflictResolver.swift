#if SIGNALSTORE_SYNC
import SignalStore

/// Decides which change stands when another replica's change meets a constraint (UNIQUE,
/// FOREIGN KEY, CHECK, NOT NULL) of this database: the rule is the server's log order.
///
/// Replaying the log from its start, a change that breaks a constraint of the rows as the
/// changes before it left them loses. A replica applies other replicas' changes in log order,
/// and uploads its own only after it has applied everything before them (``ServerLog/upload(origin:catchUp:)``),
/// so the changes in the log always fit where they are, and the only changes that can be out
/// of order here are this replica's own *pending* ones (stamped, not yet uploaded): they come
/// after everything downloaded.
///
/// So when a downloaded change meets a constraint, the resolver sets aside the pending changes
/// in its way (the rows go back to the server state), applies the downloaded change, and then
/// applies each pending change again: one that no longer fits loses, exactly as it would when
/// replayed after the downloaded change. It is undone here, taken out of the outbox (never
/// uploaded) and kept in the ``ConflictLog``. A downloaded change that meets a constraint with
/// nothing pending in its way loses instead, alike on every replica.
///
/// Before a downloaded delete (or key change) of a row, pending changes that reference the row
/// are set aside the same way: the schema's `ON DELETE` action then acts only on rows that the
/// log put before the delete, as it does everywhere else.
final class ConflictResolver {
    let tables: SyncedTables
    let connection: Connection
    /// This replica's origin id.
    let origin: String
    /// How many losing changes this resolver has recorded.
    var recorded = 0
    /// The latest clock this replica knows of: its own, then each downloaded entry's as it is
    /// applied. What a replayed change's foreign key actions did is stamped after it.
    var clock: HybridLogicalClock
    /// The rows (by ``PendingRow/name``) set aside while a downloaded change is written under
    /// them (``rebase(_:collidedWith:_:)``): their pending registers wait, and the change meets
    /// the rows as the log has them.
    var setAside: Set<String> = []
    /// The rows that the last failed ``writeServerStates(_:)`` could not put back, or the losing
    /// pending change that could not be undone after a downloaded change, and why: what a change
    /// rejected because of it names (``reject(_:rule:stuck:)``).
    var stuck: String?

    /// Whether the row `key` of `table` is set aside now.
    func isSetAside(_ table: String, _ key: String) -> Bool {
        !setAside.isEmpty && setAside.contains(PendingRow.name(table, key))
    }

    init(tables: SyncedTables, connection: Connection, origin: String, clock: HybridLogicalClock) {
        self.tables = tables
        self.connection = connection
        self.origin = origin
        self.clock = clock
    }

    /// A row with pending changes in the way: which of its registers to set aside.
    struct PendingRow {
        let table: CapturedTable
        let key: [SQLiteValue]
        let registers: [Register]

        var encodedKey: String { SyncValueCoding.encodeKey(key) }
        /// The table and key, naming the row among others.
        var name: String { Self.name(table.name, encodedKey) }

        /// The name of the row `key` (encoded) of `table`.
        static func name(_ table: String, _ key: String) -> String { "\(table) \(key)" }
        /// The set-aside change, as a conflict describes it.
        var describeChange: String {
            let register = registers.first ?? .insert
            return SyncConflict.describeChange(register.operation, column: register.column, table: table.name, key: key)
        }

        /// This row with `other`'s registers too; `nil` when it already has them all.
        func merged(with other: PendingRow) -> PendingRow? {
            let added = other.registers.filter { !registers.contains($0) }
            guard !added.isEmpty else { return nil }
            return PendingRow(table: table, key: key, registers: registers + added)
        }

        /// Whether the set-aside changes are the row's existence (an insert or a delete), not
        /// some of its columns.
        var isWholeRow: Bool { registers.contains(.insert) || registers.contains(.delete) }
    }

    // MARK: Finding what is in the way

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
    private func pendingRowsInOutboxOrder() throws -> [PendingRow] {
        var rows: [PendingRow] = []
        for (name, encoded) in try Outbox.rows(connection) {
            guard let table = tables.byName[name], let key = SyncValueCoding.decodeKey(encoded) else { continue }
            let pending = try StampTable.states(name, encoded, connection).filter { $0.value.isPending(origin: origin) }.map(\.key)
            guard !pending.isEmpty else { continue }
            rows.append(PendingRow(table: table, key: key, registers: pending.sorted { $0.name < $1.name }))
        }
        return rows
    }

    /// Puts every row with pending changes, and its registers, back to the server state: where
    /// a replay of the outbox starts (in ``setAsideOrder(_:)``).
    func setAsideAllPending() throws {
        let rows = try pendingRowsInOutboxOrder()
        try writeServerStates(rows)
        for row in rows {
            for register in row.registers { try StampTable.restoreServerState(register, row.table.name, row.encodedKey, connection) }
        }
    }

    /// Puts `rows` back to the server state, in ``setAsideOrder(_:)``; a row that meets another
    /// on the way (a UNIQUE value or a parent that another row here still holds or lacks) goes
    /// again after the others, until a whole round moves none.
    ///
    /// The order alone missed chains across its groups: a customer deleted and inserted again
    /// here with the email that another customer here gave up, restored before that one, broke
    /// UNIQUE, and a downloaded order for it was refused here only (issue 39, report 1, seen by
    /// the chaos test).
    ///
    /// A round that moves none is a cycle: each row holds a UNIQUE value that another one's
    /// server state has (this replica gave customer 21's new email to 11 and a new one to 21,
    /// while the log gave 11 that new one: chaos seed 25, issue 39). The waiting rows' UNIQUE
    /// columns are then emptied first (``vacateUniqueColumns(of:)``), once, and the rows go back
    /// from there; a cycle that passes only through `NOT NULL` columns still throws.
    func writeServerStates(_ rows: [PendingRow]) throws {
        var queue = try setAsideOrder(rows)
        var vacated = false
        while !queue.isEmpty {
            var waiting: [PendingRow] = []
            var failure: SQLiteError?
            for row in queue {
                do {
                    try connection.transaction { try writeServerState(row) }
                } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                    waiting.append(row)
                    failure = error
                }
            }
            if let failure, waiting.count == queue.count {
                guard !vacated, try vacateUniqueColumns(of: waiting) else {
                    stuck = waiting.map { "\($0.table.name) [\($0.key.map(\.description).joined(separator: ", "))]" }.joined(separator: ", ") + ": " + failure.message
                    throw failure
                }
                vacated = true
            }
            queue = waiting
        }
    }

    /// Sets to `NULL` the set-aside columns of `rows` (all of a whole row's) that a UNIQUE
    /// key of plain columns holds and that may be `NULL`, so the rows can take their server
    /// states in any order; returns whether it emptied any. Only on the way to the server
    /// state: the next writes of these rows overwrite every column it empties.
    func vacateUniqueColumns(of rows: [PendingRow]) throws -> Bool {
        var emptied = false
        for row in rows where try localRow(row.table, row.key) != nil {
            let unique = Set(row.table.uniqueKeys.filter { !$0.readsAnyColumn }.flatMap(\.columns))
            let nullable = Set(row.table.schema.columns.filter { !$0.notNull }.map(\.name))
            let setAside = row.isWholeRow ? row.table.columns : row.registers.compactMap(\.column)
            let columns = setAside.filter { unique.contains($0) && nullable.contains($0) }
            guard !columns.isEmpty else { continue }
            try KeyedRow.update(columns, to: [:], key: row.key, in: row.table.schema, connection)
            emptied = true
        }
        return emptied
    }

    /// `rows` (the oldest pending change first) in the order that puts them back to the server
    /// state without one meeting another: rows the server does not have go first, the newest
    /// first (children before parents); then changed columns go back; then rows deleted here
    /// come back, the oldest first (parents before children). Restoring a customer deleted here
    /// before another customer here gave back its email would break UNIQUE on the way, though
    /// the server's rows hold together (issue 39, report 1).
    func setAsideOrder(_ rows: [PendingRow]) throws -> [PendingRow] {
        var absent: [PendingRow] = [], changed: [PendingRow] = [], restored: [PendingRow] = []
        for row in rows {
            if try StampTable.serverRow(row.table.name, row.encodedKey, connection) == nil {
                absent.append(row)
            } else if row.isWholeRow {
                restored.append(row)
            } else {
                changed.append(row)
            }
        }
        return absent.reversed() + changed.reversed() + restored
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
