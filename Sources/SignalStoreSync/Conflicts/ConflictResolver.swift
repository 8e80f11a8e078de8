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
    private var foreignKeysRead: [ForeignKey]?
    /// How many losing changes this resolver has recorded.
    private(set) var recorded = 0

    init(tables: SyncedTables, connection: Connection, origin: String) {
        self.tables = tables
        self.connection = connection
        self.origin = origin
    }

    /// A row with pending changes in the way: which of its registers to set aside.
    struct PendingRow {
        let table: CapturedTable
        let key: [SQLiteValue]
        let registers: [ReplicaState.Register]

        var encodedKey: String { SyncValueCoding.encodeKey(key) }
        /// The table and key, naming the row among others.
        var name: String { "\(table.name) \(encodedKey)" }
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
        guard entry.operation != .insert, let table = tables.byName[entry.table], let key = SyncValueCoding.decodeKey(entry.key),
              let row = try localRow(table, key) else { return [] }
        return try pendingReferences(to: table, row: row, through: entry.operation == .update ? entry.column.map { [$0] } ?? [] : nil)
    }

    /// Rows of pending changes (an insert, or a change of the referencing columns) that
    /// reference `row` of `table` by a foreign key to any of `columns` (`nil`: any foreign key).
    private func pendingReferences(to table: CapturedTable, row: [String: SQLiteValue], through columns: [String]?) throws -> [PendingRow] {
        let referencing = try foreignKeys().filter { foreignKey in
            foreignKey.parent == table.name && (columns.map { !Set($0).isDisjoint(with: foreignKey.to) } ?? true)
        }
        var pending: [PendingRow] = []
        for foreignKey in referencing {
            guard let child = tables.byName[foreignKey.child] else { continue }
            let values = foreignKey.to.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for childKey in try keys(of: child, where: foreignKey.from, are: values) {
                if let found = try pendingRow(child, childKey, among: foreignKey.from.map(ReplicaState.Register.column)) { pending.append(found) }
            }
        }
        return pending
    }

    /// The pending changes that made `remote` fail with `error`.
    func blockers(of remote: RemoteEntry, failedWith error: SQLiteError) throws -> [PendingRow] {
        guard let table = tables.byName[remote.entry.table], let key = SyncValueCoding.decodeKey(remote.entry.key) else { return [] }
        switch error.extendedCode {
        case ConstraintCode.unique, ConstraintCode.primaryKey:
            return try uniqueBlockers(remote, table, key)
        case ConstraintCode.foreignKey:
            return try deletedParents(remote, table, key)
        case ConstraintCode.check, ConstraintCode.notNull:
            return try pendingColumns(remote, table, key)
        default:
            return []
        }
    }

    /// Rows of pending changes that hold the values of a unique key `remote` writes.
    private func uniqueBlockers(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard let row = try intendedRow(remote, table, key) else { return [] }
        let uniqueColumns = table.uniqueKeys.filter { !$0.readsAnyColumn }.map(\.columns) + [table.primaryKey]
        var pending: [PendingRow] = []
        for columns in uniqueColumns where !columns.isEmpty {
            let values = columns.map { row[$0] ?? .null }
            guard !values.contains(.null) else { continue }
            for other in try keys(of: table, where: columns, are: values) where other != key {
                if let found = try pendingRow(table, other, among: columns.map(ReplicaState.Register.column)) { pending.append(found) }
            }
        }
        return pending
    }

    /// Rows that `remote` references and this replica's pending delete removed.
    private func deletedParents(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard remote.entry.operation != .delete, let row = try intendedRow(remote, table, key) else { return [] }
        var pending: [PendingRow] = []
        for foreignKey in try foreignKeys() where foreignKey.child == table.name {
            guard let parent = tables.byName[foreignKey.parent], foreignKey.to == parent.primaryKey else { continue }
            let values = foreignKey.from.map { row[$0] ?? .null }
            guard !values.contains(.null), try keys(of: parent, where: foreignKey.to, are: values).isEmpty else { continue }
            let states = try ReplicaState.states(parent.name, SyncValueCoding.encodeKey(values), connection)
            guard states[.delete]?.isPending(origin: origin) == true,
                  try ReplicaState.serverRow(parent.name, SyncValueCoding.encodeKey(values), connection) != nil else { continue }
            pending.append(PendingRow(table: parent, key: values, registers: [.delete]))
        }
        return pending
    }

    /// The pending column changes of the row `remote` writes (a CHECK or NOT NULL rule can read
    /// the whole row).
    private func pendingColumns(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [PendingRow] {
        guard remote.entry.operation != .delete else { return [] }
        let columns = table.columns.filter { $0 != remote.entry.column }.map(ReplicaState.Register.column)
        guard let found = try pendingRow(table, key, among: columns), !found.isWholeRow else { return [] }
        return [found]
    }

    /// Every row with pending changes, in the order this replica first changed them: for a
    /// conflict the precise rows cannot settle (setting one aside meets another pending change,
    /// as when a customer deleted here is restored while a new one here holds its email).
    func allPendingRows() throws -> [PendingRow] {
        var rows: [PendingRow] = []
        for row in try connection.statement("SELECT tbl, row_key FROM \(ReplicaState.outboxTable) GROUP BY tbl, row_key ORDER BY min(seq)").rows() {
            guard case .text(let name) = row[0], case .text(let encoded) = row[1], let table = tables.byName[name],
                  let key = SyncValueCoding.decodeKey(encoded) else { continue }
            let pending = try ReplicaState.states(name, encoded, connection).filter { $0.value.isPending(origin: origin) }.map(\.key)
            guard !pending.isEmpty else { continue }
            let found = PendingRow(table: table, key: key, registers: pending.sorted { $0.name < $1.name })
            if pending.contains(.delete), try ReplicaState.serverRow(name, encoded, connection) == nil { continue }
            rows.append(found)
        }
        return rows
    }

    /// Puts every row with pending changes, and its registers, back to the server state: where
    /// a replay of the outbox starts (in ``setAsideOrder(_:)``).
    func setAsideAllPending() throws {
        var rows: [PendingRow] = []
        for row in try connection.statement("SELECT tbl, row_key FROM \(ReplicaState.outboxTable) GROUP BY tbl, row_key ORDER BY min(seq)").rows() {
            guard case .text(let name) = row[0], case .text(let encoded) = row[1], let table = tables.byName[name],
                  let key = SyncValueCoding.decodeKey(encoded) else { continue }
            let pending = try ReplicaState.states(name, encoded, connection).filter { $0.value.isPending(origin: origin) }.map(\.key)
            guard !pending.isEmpty else { continue }
            rows.append(PendingRow(table: table, key: key, registers: pending))
        }
        for row in try setAsideOrder(rows) {
            try writeServerState(row)
            for register in row.registers { try ReplicaState.restoreServerState(register, row.table.name, row.encodedKey, connection) }
        }
    }

    /// `rows` (the oldest pending change first) in the order that puts them back to the server
    /// state without one meeting another: rows the server does not have go first, the newest
    /// first (children before parents); then changed columns go back; then rows deleted here
    /// come back, the oldest first (parents before children). Restoring a customer deleted here
    /// before another customer here gave back its email would break UNIQUE on the way, though
    /// the server's rows hold together (issue 39, report 1).
    private func setAsideOrder(_ rows: [PendingRow]) throws -> [PendingRow] {
        var absent: [PendingRow] = [], changed: [PendingRow] = [], restored: [PendingRow] = []
        for row in rows {
            if try ReplicaState.serverRow(row.table.name, row.encodedKey, connection) == nil {
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
    private func pendingRow(_ table: CapturedTable, _ key: [SQLiteValue], among registers: [ReplicaState.Register]) throws -> PendingRow? {
        let encoded = SyncValueCoding.encodeKey(key)
        let states = try ReplicaState.states(table.name, encoded, connection)
        if states[.insert]?.isPending(origin: origin) == true {
            return PendingRow(table: table, key: key, registers: [.insert])
        }
        let pending = registers.filter { states[$0]?.isPending(origin: origin) == true }
        guard !pending.isEmpty, try ReplicaState.serverRow(table.name, encoded, connection) != nil else { return nil }
        return PendingRow(table: table, key: key, registers: pending)
    }

    // MARK: Setting aside and applying again

    /// Setting rows aside met a constraint: the rows here are then not the ones the server's
    /// log makes, and say nothing about whether the downloaded change fits there.
    struct SetAsideFailure: Error {
        let error: SQLiteError
    }

    /// Sets `rows` aside (back to the server state, the newest first), runs `body` (the
    /// downloaded change), then applies each set-aside change again, the oldest first; one that
    /// no longer fits loses to `remote`.
    ///
    /// Pending rows that reference a row set aside go with it (``withDependents(_:)``).
    func rebase<Result>(_ rows: [PendingRow], under remote: RemoteEntry, _ body: () throws -> Result) throws -> Result {
        guard !rows.isEmpty else { return try body() }   // the common case: no description to make
        return try rebase(rows, collidedWith: Self.describe(remote), body)
    }

    /// This replica's pending `entry` broke `rule` when the outbox was replayed after the
    /// server's log: it loses, out of the outbox and kept in the log.
    func lose(_ entry: SyncEntry, rule: String) throws {
        let key = SyncValueCoding.decodeKey(entry.key) ?? []
        var row: [String: SQLiteValue]?
        switch entry.operation {
        case .insert:
            row = entry.payload.flatMap(SyncValueCoding.decodeRow)
        case .update:
            row = try tables.byName[entry.table].flatMap { try localRow($0, key) }
            if let column = entry.column, let value = entry.payload.flatMap(SyncValueCoding.decode) { row?[column] = value }
        case .delete:
            row = try ReplicaState.serverRow(entry.table, entry.key, connection)
        }
        try ConflictLog.add(ConflictLog.Record(
            origin: origin, isLocal: true, table: entry.table, key: entry.key, operation: entry.operation, column: entry.column,
            row: row, rule: rule, collidedWith: "the rows as the server's log and this replica's earlier pending changes leave them"
        ), connection)
        recorded += 1
        try Outbox.remove(seq: entry.originSeq, connection)
    }

    private func rebase<Result>(_ rows: [PendingRow], collidedWith: String, _ body: () throws -> Result) throws -> Result {
        guard !rows.isEmpty else { return try body() }
        let (ordered, parents) = try withDependents(rows)
        let saved = try ordered.map { row in (row: row, local: try localRow(row.table, row.key)) }
        do {
            for row in try setAsideOrder(ordered) { try writeServerState(row) }
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            throw SetAsideFailure(error: error)
        }
        let result = try body()
        var lost: [String: String] = [:]   // row name → what made it lose
        for step in try replaySteps(ordered) {
            let item = saved[step.index]
            guard let rule = try reapplied(step.row, local: item.local) else { continue }
            var reason = collidedWith
            if let parent = parents[item.row.name], let parentLost = lost[parent.name] {
                reason = "\(parent.describeChange) from this replica, which lost to \(parentLost)"
            }
            try lose(step.row, local: item.local, rule: rule, collidedWith: reason)
            lost[item.row.name] = reason
        }
        return result
    }

    /// The set-aside changes of `rows` in the order they were made here (by their latest
    /// pending seq), a row's changes made one after another kept together (one statement's,
    /// which a CHECK may read together); with the index in `rows` of each step's row.
    ///
    /// Row by row, a later change of one row could go back before an earlier one of another:
    /// a customer's new email, taken after another customer here was deleted, went back while
    /// that customer was still there, and lost (issue 39, report 1).
    private func replaySteps(_ rows: [PendingRow]) throws -> [(index: Int, row: PendingRow)] {
        var changes: [(seq: Int64, index: Int, register: ReplicaState.Register)] = []
        for (index, row) in rows.enumerated() {
            for register in row.registers {
                changes.append((try Outbox.latestPendingSeq(register, row.table.name, row.encodedKey, connection) ?? .max, index, register))
            }
        }
        changes.sort { ($0.seq, $0.index) < ($1.seq, $1.index) }
        var steps: [(index: Int, row: PendingRow)] = []
        for change in changes {
            if let last = steps.last, last.index == change.index {
                steps[steps.count - 1].row = PendingRow(table: last.row.table, key: last.row.key, registers: last.row.registers + [change.register])
            } else {
                let row = rows[change.index]
                steps.append((change.index, PendingRow(table: row.table, key: row.key, registers: [change.register])))
            }
        }
        return steps
    }

    /// Writes a set-aside row's pending changes again; returns the rule they break, or `nil`.
    private func reapplied(_ row: PendingRow, local: [String: SQLiteValue]?) throws -> String? {
        do {
            try connection.transaction { try writePending(row, local: local) }
            return nil
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            return error.message
        }
    }

    /// `rows` and, transitively, the pending rows that reference a row whose insert or
    /// referenced columns are set aside, the oldest first (by their first pending change),
    /// with the row each added one references.
    ///
    /// Setting a parent aside without its pending children would let the schema's `ON DELETE`
    /// action change them behind the rule's back (a child then kept a `NULL` its outbox does
    /// not hold); set aside together, a child is applied again after its parent, and loses if
    /// its parent lost, as when the log is replayed without the parent.
    private func withDependents(_ rows: [PendingRow]) throws -> (rows: [PendingRow], parents: [String: PendingRow]) {
        var byName: [String: PendingRow] = [:]
        var parents: [String: PendingRow] = [:]
        var queue = rows
        while let row = queue.popLast() {
            if let known = byName[row.name] {
                guard let merged = known.merged(with: row) else { continue }
                byName[row.name] = merged
            } else {
                byName[row.name] = row
            }
            guard let local = try localRow(row.table, row.key) else { continue }
            let columns: [String]? = row.registers.contains(.insert) ? nil : row.registers.compactMap(\.column)
            if columns?.isEmpty == true { continue }
            for child in try pendingReferences(to: row.table, row: local, through: columns) {
                parents[child.name] = parents[child.name] ?? row
                queue.append(child)
            }
        }
        let ordered = try byName.values
            .map { row in (row: row, first: try Outbox.firstPendingSeq(row.table.name, row.encodedKey, connection) ?? .max) }
            .sorted { $0.first < $1.first }
            .map(\.row)
        return (ordered, parents)
    }

    /// Records that `remote` lost: it breaks a constraint of the rows the log's earlier
    /// changes left, here as on every replica.
    func reject(_ remote: RemoteEntry, rule: String) throws {
        let entry = remote.entry
        let table = tables.byName[entry.table]
        let key = SyncValueCoding.decodeKey(entry.key) ?? []
        let row = try table.flatMap { table in try intendedRow(remote, table, key) }
        try ConflictLog.add(ConflictLog.Record(
            origin: remote.origin, isLocal: false, table: entry.table, key: entry.key, operation: entry.operation, column: entry.column,
            row: row, rule: rule, collidedWith: "the rows as the server's log left them before position \(remote.position)"
        ), connection)
        recorded += 1
    }

    /// This replica's pending change lost: undone, out of the outbox, kept in the log. A lost
    /// insert takes the row's later pending changes with it: they changed a row that never was.
    private func lose(_ row: PendingRow, local: [String: SQLiteValue]?, rule: String, collidedWith: String) throws {
        let serverRow = try ReplicaState.serverRow(row.table.name, row.encodedKey, connection)
        for register in row.registers {
            try ConflictLog.add(ConflictLog.Record(
                origin: origin, isLocal: true, table: row.table.name, key: row.encodedKey, operation: register.operation, column: register.column,
                row: register == .delete ? serverRow : local, rule: rule, collidedWith: collidedWith
            ), connection)
            recorded += 1
        }
        var undone = row.registers
        if row.registers.contains(.insert) {
            undone += try ReplicaState.states(row.table.name, row.encodedKey, connection).filter { $0.value.isPending(origin: origin) && !undone.contains($0.key) }.map(\.key)
        }
        for register in undone {
            try Outbox.remove(register, row.table.name, row.encodedKey, connection)
            try ReplicaState.restoreServerState(register, row.table.name, row.encodedKey, connection)
        }
        try writeServerState(row)
    }

    static func describe(_ remote: RemoteEntry) -> String {
        let entry = remote.entry
        let change = SyncConflict.describeChange(entry.operation, column: entry.column, table: entry.table, key: SyncValueCoding.decodeKey(entry.key) ?? [])
        return "\(change) by replica \(remote.origin), server log position \(remote.position)"
    }

    /// Writes the row's set-aside registers as the server's log has them.
    private func writeServerState(_ row: PendingRow) throws {
        guard let server = try ReplicaState.serverRow(row.table.name, row.encodedKey, connection) else {
            if row.isWholeRow { try writeWholeRow(row, nil) }
            return
        }
        let values = try afterParentsDeleted(server, of: row.table)
        if row.isWholeRow {
            try writeWholeRow(row, values)
        } else {
            try writeColumns(row, from: values)
        }
    }

    /// `values` with each reference to a parent row that is gone set to `NULL`, where the
    /// foreign key says `ON DELETE SET NULL`: the server state is kept per register, and a
    /// parent's delete set the reference to `NULL` on every replica as a foreign key action,
    /// which no register records.
    private func afterParentsDeleted(_ values: [String: SQLiteValue], of table: CapturedTable) throws -> [String: SQLiteValue] {
        var result = values
        for foreignKey in try foreignKeys() where foreignKey.child == table.name && foreignKey.onDelete == "SET NULL" {
            guard let parent = tables.byName[foreignKey.parent] else { continue }
            let references = foreignKey.from.map { values[$0] ?? .null }
            guard !references.contains(.null), try keys(of: parent, where: foreignKey.to, are: references).isEmpty else { continue }
            for column in foreignKey.from { result[column] = .null }
        }
        return result
    }

    /// Writes the row's set-aside registers as they were here before.
    private func writePending(_ row: PendingRow, local: [String: SQLiteValue]?) throws {
        if row.isWholeRow {
            try writeWholeRow(row, local)
        } else if let local {
            try writeColumns(row, from: local)
        }
    }

    private func writeColumns(_ row: PendingRow, from values: [String: SQLiteValue]) throws {
        guard try localRow(row.table, row.key) != nil else { return }
        try KeyedRow.update(row.registers.compactMap(\.column), to: values, key: row.key, in: row.table.schema, connection)
    }

    /// Makes the row hold `values`, or not exist for `nil`.
    private func writeWholeRow(_ row: PendingRow, _ values: [String: SQLiteValue]?) throws {
        try KeyedRow.write(values, key: row.key, in: row.table.schema, connection)
    }

    // MARK: Reading rows

    /// The row `remote` would leave: an insert's row, or the local row with an update's value.
    private func intendedRow(_ remote: RemoteEntry, _ table: CapturedTable, _ key: [SQLiteValue]) throws -> [String: SQLiteValue]? {
        let entry = remote.entry
        switch entry.operation {
        case .insert:
            return entry.payload.flatMap(SyncValueCoding.decodeRow)
        case .update:
            guard var row = try localRow(table, key), let column = entry.column, let value = entry.payload.flatMap(SyncValueCoding.decode) else { return nil }
            row[column] = value
            return row
        case .delete:
            return try localRow(table, key)
        }
    }

    private func localRow(_ table: CapturedTable, _ key: [SQLiteValue]) throws -> [String: SQLiteValue]? {
        try KeyedRow.read(key, in: table.schema, connection)
    }

    /// The primary keys of `table`'s rows whose `columns` hold `values`.
    private func keys(of table: CapturedTable, where columns: [String], are values: [SQLiteValue]) throws -> [[SQLiteValue]] {
        let condition = columns.map { "\(quotedIdentifier($0)) IS ?" }.joined(separator: " AND ")
        let key = table.primaryKey.map(quotedIdentifier).joined(separator: ", ")
        return try connection.statement("SELECT \(key) FROM \(quotedIdentifier(table.name)) WHERE \(condition)").rows(values)
    }

    private func foreignKeys() throws -> [ForeignKey] {
        if let foreignKeysRead { return foreignKeysRead }
        let read = try ForeignKey.all(tables, connection)
        foreignKeysRead = read
        return read
    }

    /// SQLite's extended result codes for the constraints the rule knows.
    private enum ConstraintCode {
        static let check: Int32 = 275        // SQLITE_CONSTRAINT_CHECK
        static let foreignKey: Int32 = 787   // SQLITE_CONSTRAINT_FOREIGNKEY
        static let notNull: Int32 = 1299     // SQLITE_CONSTRAINT_NOTNULL
        static let primaryKey: Int32 = 1555  // SQLITE_CONSTRAINT_PRIMARYKEY
        static let unique: Int32 = 2067      // SQLITE_CONSTRAINT_UNIQUE
    }
}

/// A `REFERENCES` clause between two synced tables.
struct ForeignKey: Equatable {
    /// The referencing table and its columns.
    let child: String
    let from: [String]
    /// The referenced table and its columns (its primary key when the clause names none).
    let parent: String
    let to: [String]
    /// The `ON DELETE` action, as SQLite names it: `NO ACTION`, `RESTRICT`, `CASCADE`,
    /// `SET NULL`, `SET DEFAULT`.
    let onDelete: String

    static func all(_ tables: SyncedTables, _ connection: Connection) throws -> [ForeignKey] {
        var result: [ForeignKey] = []
        for child in tables.names {
            var clauses: [Int64: (parent: String, from: [String], to: [String], onDelete: String)] = [:]
            for row in try connection.statement("SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq").rows([.text(child)]) {
                guard case .integer(let id) = row[0], case .text(let parent) = row[1], case .text(let from) = row[2] else { continue }
                var clause = clauses[id] ?? (parent, [], [], row[4].textValue ?? "NO ACTION")
                clause.from.append(from)
                if let to = row[3].textValue { clause.to.append(to) }
                clauses[id] = clause
            }
            for clause in clauses.values.sorted(by: { $0.parent < $1.parent }) {
                guard let parent = tables.byName[clause.parent] else { continue }
                result.append(ForeignKey(child: child, from: clause.from, parent: parent.name, to: clause.to.isEmpty ? parent.primaryKey : clause.to, onDelete: clause.onDelete))
            }
        }
        return result
    }
}

extension SyncedTables {
    /// The tables whose rows no rule ties to other rows or to other columns' changes: no
    /// UNIQUE key besides the primary key, no CHECK, no foreign key either way. A change to
    /// one can break no rule of another change (see ``RemoteApplier/settlePending()``).
    func independent(_ connection: Connection) throws -> Set<String> {
        let foreignKeys = try ForeignKey.all(self, connection)
        var result: Set<String> = []
        for (name, table) in byName {
            guard !table.uniqueKeys.contains(where: { $0.columns != table.primaryKey || $0.readsAnyColumn }),
                  !foreignKeys.contains(where: { $0.parent == name || $0.child == name }) else { continue }
            let sql = try connection.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])?.textValue ?? ""
            if !sql.uppercased().contains("CHECK") { result.insert(name) }
        }
        return result
    }

    /// The tables whose log entries compaction may remove: those no constraint ties to other
    /// rows' history. Replaying a compacted log skips superseded states, which is harmless
    /// for a row alone, but a UNIQUE key (other than the primary key), a row other rows
    /// reference, or a reference whose parent's delete cascades or is refused could then meet
    /// a state that never was, and decide a conflict differently. A reference whose parent's
    /// delete sets it to NULL or its default is harmless: the latest value is kept.
    func compactable(_ connection: Connection) throws -> [String] {
        let foreignKeys = try ForeignKey.all(self, connection)
        return names.filter { name in
            guard let table = byName[name] else { return false }
            let uniqueBesidesKey = table.uniqueKeys.contains { $0.columns != table.primaryKey || $0.readsAnyColumn }
            let referenced = foreignKeys.contains { $0.parent == name }
            let strictReference = foreignKeys.contains { $0.child == name && !["SET NULL", "SET DEFAULT"].contains($0.onDelete) }
            return !uniqueBesidesKey && !referenced && !strictReference
        }
    }
}
#endif
