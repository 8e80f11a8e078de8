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
}
#endif
