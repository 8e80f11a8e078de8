#if SIGNALSTORE_SYNC
// The register rule for each operation; inserts and their prepared row writes are in RemoteApplier+Inserts, the other facets in RemoteApplier+*.swift.
import SignalStore

/// Writes other replicas' changes into the local tables by the conflict rule.
///
/// Every replica keeps, per row, three kinds of "latest stamp" registers (see
/// ``Register``): the latest insert, the latest delete, and per column the latest
/// update with its value. Registers only ever move to a later stamp, so they end up the same on
/// every replica whatever order the entries arrive in, and the row is a function of them:
/// - it exists when its latest insert is later than its latest delete (a delete wins over
///   every update, however late; only a later insert brings the row back);
/// - each column holds the latest update's value if that update is later than the insert,
///   else the insert's value.
///
/// A change that would break a constraint (UNIQUE, FOREIGN KEY, CHECK, NOT NULL) goes to the
/// ``ConflictResolver``, which decides by the server's log order which change stands.
///
/// Runs inside the store's write transaction, so the writes are journaled and published like
/// any other: live objects and signals see each exactly once.
final class RemoteApplier {
    let tables: SyncedTables
    let connection: Connection
    let resolver: ConflictResolver
    /// What this batch has learned per row (`table` + key): its local rowid (`nil`: not here)
    /// and its latest insert's stamp. A batch often changes one row many times.
    var rowIDs: [RowName: Int64?] = [:]
    var insertStamps: [RowName: Stamp?] = [:]

    /// A row by its table and encoded key.
    struct RowName: Hashable {
        let table: String
        let key: String
    }

    /// What this batch changed (or rejected), for ``settlePending()``.
    var footprint = BatchFootprint()

    /// The inserts this batch journals by hand (``planHandJournaling(_:ownOrigin:)``).
    var handJournal = HandJournalPlan()

    /// How many losing changes the batch recorded in the ``ConflictLog``.
    var conflicts: Int { resolver.recorded }

    /// What applying an entry did.
    enum Outcome {
        case applied, unchanged
        /// It broke a constraint of the rows the log's earlier changes left, and lost.
        case rejected
    }

    /// - Parameters:
    ///   - origin: This replica's origin id.
    ///   - clock: The latest clock this replica knows of.
    init(tables: SyncedTables, connection: Connection, origin: String, clock: HybridLogicalClock) {
        self.tables = tables
        self.connection = connection
        resolver = ConflictResolver(tables: tables, connection: connection, origin: origin, clock: clock)
    }

    /// The latest clock this replica knows of after the batch: what the resolver stamped
    /// included.
    var clock: HybridLogicalClock { resolver.clock }

    /// Applies one row change (``rowChanges(_:)``: one entry, or one statement's updates of a
    /// row), in a savepoint of its own: one that breaks a constraint leaves nothing behind but
    /// what the conflict rule decides, and its entries stand or lose together.
    func apply(_ change: RowChange) throws -> Outcome {
        let remote = change.firstEntry
        footprint.note(change, tables.byName[remote.entry.table])
        resolver.clock = change.reduce(resolver.clock) { max($0, $1.entry.clock) }
        var references: [ConflictResolver.PendingRow] = []
        for entry in change { references += try resolver.pendingReferences(to: entry) + resolver.reinsertedParents(of: entry) }
        if !references.isEmpty { footprint.unbounded() }
        do {
            let changed = try savepoint(rewritingRows: !references.isEmpty) { try resolver.rebase(references, under: remote) { try write(change) } }
            return changed ? .applied : .unchanged
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            footprint.unbounded()
            return try resolve(change, error)
        } catch let failure as ConflictResolver.SetAsideFailure {
            footprint.unbounded()
            return try resolve(change, failure.error)
        }
    }

    /// Applies one row change without a savepoint of its own, inside ``inOneSavepoint(_:)``
    /// while nothing is pending here: a constraint it breaks throws.
    func applyDirectly(_ change: RowChange) throws -> Outcome {
        footprint.note(change, tables.byName[change.firstEntry.entry.table])
        return try write(change) ? .applied : .unchanged
    }

    /// `body` in one savepoint, or `nil` with everything it wrote undone when it broke a
    /// constraint.
    ///
    /// The capture triggers are on again when it returns, however it ends (inserts may have
    /// been journaled by hand in it).
    func inOneSavepoint<Result>(_ body: () throws -> Result) throws -> Result? {
        do {
            let result = try savepoint(body)
            try stopJournalingByHand()
            return result
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            try stopJournalingByHand()
            footprint.clear()
            return nil
        } catch {
            try? stopJournalingByHand()   // the whole transaction rolls back with the error
            throw error
        }
    }

    /// `remote` broke a constraint: this replica's pending changes in its way are set aside and
    /// tried again after it (and lose if they no longer fit); with none in its way, it loses.
    ///
    /// The rows in the way are tried first; if that does not settle it (setting them aside
    /// meets other pending changes), every pending change is set aside, which leaves exactly
    /// the rows the server's log made, where `remote` either fits or loses everywhere.
    private func resolve(_ change: RowChange, _ error: SQLiteError) throws -> Outcome {
        var rule = error.message
        resolver.stuck = nil
        var blockers: [ConflictResolver.PendingRow] = []
        for remote in change { blockers += try resolver.blockers(of: remote, failedWith: error) }
        if !blockers.isEmpty, let outcome = try rebased(blockers, change, rule: &rule) { return outcome }
        let everything = try resolver.allPendingRows()
        if !everything.isEmpty, let outcome = try rebased(everything, change, rule: &rule) { return outcome }
        for remote in change { try resolver.reject(remote, rule: rule, stuck: resolver.stuck) }
        return .rejected
    }

    /// `change` written with `rows` set aside, or `nil` (and the rule it broke) if it still
    /// does not fit.
    private func rebased(_ rows: [ConflictResolver.PendingRow], _ change: RowChange, rule: inout String) throws -> Outcome? {
        do {
            let changed = try savepoint(rewritingRows: true) { try resolver.rebase(rows, under: change.firstEntry) { try write(change) } }
            return changed ? .applied : .unchanged
        } catch let again as SQLiteError where again.code == SQLiteError.constraint {
            rule = again.message
            return nil
        } catch is ConflictResolver.SetAsideFailure {
            return nil   // the rows in the way could not go back: `remote` keeps its own rule
        }
    }

    /// `body` in a savepoint of its own: the one place where what this batch learned about rows
    /// (``rowIDs``, ``insertStamps``) is given up. It no longer holds when the savepoint rolls
    /// back; with `rewritingRows` (the resolver sets rows aside, a row leaves or arrives with
    /// its registers), it is given up before `body` and after it, however it ends.
    func savepoint<Result>(rewritingRows: Bool = false, _ body: () throws -> Result) throws -> Result {
        if rewritingRows { forgetRows() }
        defer { if rewritingRows { forgetRows() } }
        do {
            return try connection.transaction { try body() }
        } catch {
            forgetRows()
            throw error
        }
    }

    private func forgetRows() {
        rowIDs.removeAll()
        insertStamps.removeAll()
    }

    /// Writes one row change by the registers; returns whether it changed a row.
    ///
    /// This replica's own pending entries are written `fromServer: false` when the outbox is
    /// replayed.
    func write(_ change: RowChange, fromServer: Bool = true) throws -> Bool {
        if let remote = change.first(where: { $0.unreadable != nil }) { throw UnreadableEntry(remote: remote, reason: remote.unreadable ?? "") }
        guard change.count > 1 else { return try write(change.firstEntry, fromServer: fromServer) }
        let (table, rowID) = try target(of: change.firstEntry)
        var columns: [String] = [], values: [SQLiteValue] = []
        for remote in change {
            guard let (column, value) = try winningUpdate(remote, table, rowID, fromServer: fromServer) else { continue }
            columns.append(column)
            values.append(value)
        }
        guard let rowID, !columns.isEmpty else { return false }
        try rowWrite(.update, table, columns).run(values + [.integer(rowID)])
        return true
    }

    /// Writes one entry by the registers; returns whether it changed a row.
    private func write(_ remote: RemoteEntry, fromServer: Bool) throws -> Bool {
        if let reason = remote.unreadable { throw UnreadableEntry(remote: remote, reason: reason) }
        let entry = remote.entry
        if insertsUnregisteredRow(remote) { return try applyFirstInsert(remote, table(of: remote)) }
        let (table, rowID) = try target(of: remote)
        switch entry.operation {
        case .insert: return try applyInsert(remote, table, rowID, fromServer: fromServer)
        case .update: return try applyUpdate(remote, table, rowID, fromServer: fromServer)
        case .delete: return try applyDelete(remote, table, rowID, fromServer: fromServer)
        }
    }

    /// The table an entry changes and its row's local rowid (`nil`: not here).
    /// - Throws: ``SyncError/schemaMismatch`` for a table or key this database does not have.
    private func target(of remote: RemoteEntry) throws -> (CapturedTable, Int64?) {
        let entry = remote.entry
        let (table, key) = try tableAndKey(of: remote)
        let name = RowName(table: entry.table, key: entry.key)
        let rowID: Int64?
        if let known = rowIDs[name] { rowID = known } else {
            rowID = try localRowID(key, in: table)
            rowIDs[name] = rowID
        }
        return (table, rowID)
    }

    private func applyUpdate(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, fromServer: Bool) throws -> Bool {
        guard let (column, value) = try winningUpdate(remote, table, rowID, fromServer: fromServer), let rowID else { return false }
        try rowWrite(.update, table, [column]).run([value, .integer(rowID)])
        if table.primaryKey.contains(column) { rowIDs.removeAll() }   // the row now has another key
        return true
    }

    /// The column and value an update writes, once its register is raised; `nil` when a later
    /// change outlives it or its row is not here.
    private func winningUpdate(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, fromServer: Bool) throws -> (String, SQLiteValue)? {
        let entry = remote.entry
        guard let column = entry.column, let payload = entry.payload, let value = SyncValueCoding.decode(payload) else {
            throw UnreadableEntry(remote: remote, reason: "it is an update without a readable column and value")
        }
        try table.checkColumns([column], writtenBy: remote)
        guard try StampTable.raise(.column(column), entry.table, entry.key, to: remote.stamp, value: payload, fromServer: fromServer, connection) else { return nil }
        // A row that is not here stays away (deleted: deletes win; or its insert is still to
        // come, and will take this value then).
        guard rowID != nil else { return nil }
        if let inserted = try insertStamp(RowName(table: entry.table, key: entry.key)), inserted > remote.stamp { return nil }
        return (column, value)
    }

    private func applyDelete(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, fromServer: Bool) throws -> Bool {
        // A row not here that the log has: this replica's pending delete took it, and the log's
        // delete acts on the log's rows all the same.
        let notHere = fromServer && rowID == nil && resolver.setsNullOnDelete(table.name)
        let before = notHere ? try StampTable.serverRow(table.name, remote.entry.key, connection) : nil
        guard try StampTable.raise(.delete, remote.entry.table, remote.entry.key, to: remote.stamp, fromServer: fromServer, connection) else {
            if notHere { try resolver.recordActionsOfDeleteNotHere(table, key: remote.entry.key, before: before) }
            return false
        }
        let name = RowName(table: remote.entry.table, key: remote.entry.key)
        if let inserted = try insertStamp(name), inserted > remote.stamp {
            // A newer insert outlives the delete; one pending here still lets the delete act first.
            guard fromServer, try savepoint(rewritingRows: true, { try resolver.deleteUnderPendingInsert(remote, table) }) else { return false }
            footprint.unbounded()
            return true
        }
        guard let rowID else {
            if notHere { try resolver.recordActionsOfDeleteNotHere(table, key: remote.entry.key, before: before) }
            return false
        }
        let delete = { try self.connection.statement(RowSQL.delete(from: table.name)).run([.integer(rowID)]) }
        if fromServer { try resolver.recordingActions(of: table, key: remote.entry.key, delete) } else { try delete() }
        // A delete can cascade to other rows (foreign keys), and frees rowids for reuse.
        rowIDs.removeAll()
        return true
    }

    private func insertStamp(_ name: RowName) throws -> Stamp? {
        if let known = insertStamps[name] { return known }
        let stamp = try StampTable.stamp(name.table, name.key, .insert, connection)?.stamp
        insertStamps[name] = stamp
        return stamp
    }

    /// Per table, the statement that finds a row's rowid by its key.
    /// The table and columns of the last insert whose columns were checked: a run of one
    /// table's inserts names the same columns, checked once (the schema holds for the batch).
    var lastCheckedInsert: (table: String, columns: [String])?

    /// A statement that writes a row's columns, by what it does, the table and the columns.
    struct RowWrite: Hashable {
        enum Kind { case insert, update }
        let kind: Kind
        let table: String
        let columns: [String]
    }

    /// The batch's row writes, prepared once: an entry's SQL is not built and looked up again.
    var rowWrites: [RowWrite: Statement] = [:]
    /// The last row write: a batch's entries mostly come in runs of one shape, which a
    /// comparison finds without hashing every column's name.
    var lastRowWrite: (write: RowWrite, statement: Statement)?
    private var rowIDLookups: [String: Statement] = [:]

    func localRowID(_ key: [SQLiteValue], in table: CapturedTable) throws -> Int64? {
        let lookup: Statement
        if let prepared = rowIDLookups[table.name] { lookup = prepared } else {
            lookup = try connection.statement(SQL("SELECT rowid FROM \(identifier: table.name) WHERE \(table.schema.keyCondition)").text)
            rowIDLookups[table.name] = lookup
        }
        return try lookup.scalar(key)?.integerValue
    }
}
#endif
