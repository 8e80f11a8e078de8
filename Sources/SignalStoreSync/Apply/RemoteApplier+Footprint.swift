#if SIGNALSTORE_SYNC
import SignalStore

/// What a batch changed, so that replaying this replica's pending changes after it
/// (``RemoteApplier/settlePending()``) runs only when a rule can tie them together.
///
/// A pending change can lose in the replay only if a rule it is checked against reads a row the
/// batch changed: its own row (a CHECK or NOT NULL reads the row's columns, which the batch's
/// registers may have changed), a row of the same table under a UNIQUE key besides the primary
/// key, or a row that a foreign key ties to it, directly or through other tables (a delete's
/// `ON DELETE` action reaches rows further on). When none of that holds, the replay would put
/// every pending change back as it is, and is rolled back: skipping it changes nothing.
struct BatchFootprint {
    /// The rows the batch's changes named (table and encoded key); `nil` once it did something
    /// the rows alone do not bound: changed a row's key, moved a row between scopes, set a
    /// pending row aside, or met a constraint.
    private(set) var rows: Set<RemoteApplier.RowName>? = []
    /// The tables of those rows.
    private(set) var tables: Set<String> = []

    /// A footprint that notes the batch's rows, or with `tracksRows` false only its tables:
    /// for a batch applied while nothing is pending, where no replay follows (its rows are
    /// then unbounded, should one be asked for).
    init(tracksRows: Bool = true) {
        rows = tracksRows ? [] : nil
    }

    /// Notes a change the batch applies to a row of `table`.
    mutating func note(_ change: RowChange, _ table: CapturedTable?) {
        for remote in change { note(remote, table) }
    }

    /// Notes an entry the batch applies to a row of `table`.
    mutating func note(_ remote: RemoteEntry, _ table: CapturedTable?) {
        tables.insert(remote.entry.table)
        let rekeys = remote.entry.column.map { table?.primaryKey.contains($0) ?? true } ?? false
        if rekeys || !remote.carried.isEmpty || remote.previousScope != nil { rows = nil }
        rows?.insert(RemoteApplier.RowName(table: remote.entry.table, key: remote.entry.key))
    }

    /// The batch did something its rows do not bound.
    mutating func unbounded() {
        rows = nil
    }

    /// Forgets everything: the batch goes again.
    mutating func clear() {
        rows = rows.map { _ in [] }
        tables = []
    }

    /// Whether a rule can tie one of `pending` (this replica's pending changes: table, encoded
    /// key, and the column an update changes) to what the batch changed.
    func mayMeet(_ pending: [(table: String, key: String, column: String?)], _ synced: SyncedTables) -> Bool {
        guard let rows else { return true }
        var tied: [String: Bool] = [:]   // per pending table: whether a rule ties it to the batch's tables
        for change in pending {
            if rows.contains(RemoteApplier.RowName(table: change.table, key: change.key)) { return true }
            guard let table = synced.byName[change.table] else { return true }
            if let column = change.column, table.primaryKey.contains(column) { return true }
            if tied[change.table] == nil { tied[change.table] = tables.contains { synced.rulesTie($0, change.table) } }
            if tied[change.table] == true { return true }
        }
        return false
    }
}

extension SyncedTables {
    /// Whether a change to one row of `first` can decide whether a change to another row of
    /// `second` breaks a rule: the same table with a UNIQUE key besides the primary key, or
    /// one that other rows reference (an `ON DELETE` action reaches them); or two tables that
    /// foreign keys join, directly or through others.
    func rulesTie(_ first: String, _ second: String) -> Bool {
        if first == second {
            guard let table = byName[first] else { return true }
            return table.uniqueKeys.contains { $0.columns != table.primaryKey || $0.readsAnyColumn }
                || foreignKeys.contains { $0.parent == first }
        }
        var joined: Set<String> = [first], frontier = [first]
        while let table = frontier.popLast() {
            for foreignKey in foreignKeys where foreignKey.parent == table || foreignKey.child == table {
                for next in [foreignKey.parent, foreignKey.child] where joined.insert(next).inserted {
                    if next == second { return true }
                    frontier.append(next)
                }
            }
        }
        return false
    }
}
#endif
