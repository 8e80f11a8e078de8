#if SIGNALSTORE_SYNC
import SignalStore

/// A change that loses: this replica's pending one that no longer fits after the server's log
/// (undone, out of the outbox, kept in the conflict log), or a downloaded one that breaks a
/// constraint of the rows the log left (kept in the conflict log, here as everywhere); and what
/// of a losing row's own earlier changes still stands.
extension ConflictResolver {
    /// This replica's pending `entry` broke `rule` when the outbox was replayed after the
    /// server's log (or the server refused it): it loses, out of the outbox and kept in the log.
    func lose(_ entry: SyncEntry, rule: String, kind: SyncConflict.Kind = .constraint,
              collidedWith: String = "the rows as the server's log and this replica's earlier pending changes leave them") throws {
        let key = SyncValueCoding.decodeKey(entry.key) ?? []
        var row: [String: SQLiteValue]?
        switch entry.operation {
        case .insert:
            row = entry.payload.flatMap(SyncValueCoding.decodeRow)
        case .update:
            row = try tables.byName[entry.table].flatMap { try localRow($0, key) }
            if let column = entry.column, let value = entry.payload.flatMap(SyncValueCoding.decode) { row?[column] = value }
        case .delete:
            row = try StampTable.serverRow(entry.table, entry.key, connection)
        }
        try ConflictLog.add(ConflictLog.Record(
            origin: origin, isLocal: true, table: entry.table, key: entry.key, operation: entry.operation, column: entry.column,
            row: row, rule: rule, collidedWith: collidedWith, kind: kind
        ), connection)
        recorded += 1
        try Outbox.remove(seq: entry.originSeq, connection)
    }

    /// Records that `remote` lost: it breaks a constraint of the rows the log's earlier
    /// changes left, here as on every replica.
    ///
    /// `stuck`: this replica's pending rows that could not be set aside for it (the rows here
    /// were then not the log's), named in the record so that the cause can be found.
    func reject(_ remote: RemoteEntry, rule: String, stuck: String? = nil) throws {
        let entry = remote.entry
        let table = tables.byName[entry.table]
        let key = SyncValueCoding.decodeKey(entry.key) ?? []
        let row = try table.flatMap { table in try intendedRow(remote, table, key) }
        try ConflictLog.add(ConflictLog.Record(
            origin: remote.origin, isLocal: false, table: entry.table, key: entry.key, operation: entry.operation, column: entry.column,
            row: row, rule: rule,
            collidedWith: "the rows as the server's log left them before position \(remote.position)"
                + (stuck.map { "; this replica's pending changes could not be set aside for it (\($0))" } ?? ""),
            uploadedBy: remote.uploadedBy
        ), connection)
        recorded += 1
    }

    /// This replica's pending change lost: undone, out of the outbox, kept in the log. A lost
    /// insert takes the row's later pending changes with it: they changed a row that never was.
    func lose(_ row: PendingRow, local: [String: SQLiteValue]?, rule: String, collidedWith: String) throws {
        let serverRow = try StampTable.serverRow(row.table.name, row.encodedKey, connection)
        for register in row.registers {
            try ConflictLog.add(ConflictLog.Record(
                origin: origin, isLocal: true, table: row.table.name, key: row.encodedKey, operation: register.operation, column: register.column,
                row: register == .delete ? serverRow : local, rule: rule, collidedWith: collidedWith
            ), connection)
            recorded += 1
        }
        var undone = row.registers
        let deleteStands = try deleteStandsBefore(row)
        if row.registers.contains(.insert) {
            undone += try StampTable.states(row.table.name, row.encodedKey, connection)
                .filter { $0.value.isPending(origin: origin) && !undone.contains($0.key) && !($0.key == .delete && deleteStands) }.map(\.key)
        }
        var earlier: [(register: Register, changes: [Outbox.RegisterChange])] = []
        for register in undone {
            if !row.isWholeRow, register.column != nil,
               case let changes = try Outbox.earlierPending(register, row.table.name, row.encodedKey, connection), let latest = changes.first {
                try Outbox.remove(register, row.table.name, row.encodedKey, after: latest.seq, connection)
                earlier.append((register, changes))
                continue
            }
            try Outbox.remove(register, row.table.name, row.encodedKey, connection)
            try StampTable.restoreServerState(register, row.table.name, row.encodedKey, connection)
        }
        if deleteStands, try deleteOutlivesInsert(row) {
            try writeWholeRow(row, nil)
        } else {
            try writeServerState(row)
        }
        for (register, changes) in earlier { try keepEarlierChange(of: register, changes, row) }
    }

    /// A column's latest pending change lost; the latest of its earlier pending changes that
    /// fits the rows and is later than the server state stands (the register and the row take
    /// it), as where the outbox is replayed entry by entry, and only the later ones leave the
    /// outbox. With none that does, the column goes back to the server state like the rest of
    /// `row`.
    ///
    /// An earlier change is often what a foreign key action of this replica's own delete
    /// did: A deleted customer 2 (the order's reference went to `NULL`), then moved the order
    /// to a customer another replica deleted first. Undone together, the move took the `NULL`
    /// with it, and the order went back to customer 2 on A, while every other replica applied
    /// A's delete and its `SET NULL` (chaos seed 24 with faults).
    func keepEarlierChange(of register: Register, _ changes: [Outbox.RegisterChange], _ row: PendingRow) throws {
        guard let column = register.column else { return }
        // A change older than the register's server state no longer acts: the log's later one
        // holds. Nor does one older than the row's latest insert: the column holds the insert's
        // value (B's older NULL for a customer's email stood after C inserted the customer
        // again, on B only: chaos seed 121 with faults).
        let states = try StampTable.states(row.table.name, row.encodedKey, connection)
        let server = states[register]?.server?.stamp
        for change in changes {
            let stamp = Stamp(clock: change.stamp, origin: origin)
            guard server.map({ stamp > $0 }) ?? true, states.outlivesLatestInsert(stamp, pendingHere: origin) else { continue }
            let value = change.payload.flatMap(SyncValueCoding.decode) ?? .null
            do {
                try connection.transaction { try KeyedRow.update([column], to: [column: value], key: row.key, in: row.table.schema, connection) }
            } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                continue
            }
            try Outbox.remove(register, row.table.name, row.encodedKey, after: change.seq, connection)
            try StampTable.lowerPending(register, row.table.name, row.encodedKey, to: stamp, value: change.payload, connection)
            return
        }
        try Outbox.remove(register, row.table.name, row.encodedKey, connection)
        try StampTable.restoreServerState(register, row.table.name, row.encodedKey, connection)
    }

    /// Whether the row's latest delete is later than its latest insert, once a losing insert
    /// is undone: the delete that stands acts only if no later insert from the log brought the
    /// row back. Another replica's delete and insert of the row, stamped after this replica's
    /// delete, make its row the latest incarnation; deleting it here too left the row out on
    /// this replica only, which then refused the orders for it (chaos seed 31 with faults).
    func deleteOutlivesInsert(_ row: PendingRow) throws -> Bool {
        let states = try StampTable.states(row.table.name, row.encodedKey, connection)
        guard let delete = states[.delete]?.current.stamp else { return false }
        return states.outlivesLatestInsert(delete, pendingHere: origin)
    }

    /// Whether `row` is a losing insert of a row this replica deleted before it inserted it
    /// again: the delete is a change of its own, which stands (the row stays deleted), as when
    /// the outbox is replayed entry by entry. Taken along with the insert, it was gone from
    /// the outbox while what its `ON DELETE SET NULL` did stayed here (chaos seed 2 with
    /// faults: an order kept `NULL` here and its customer everywhere else).
    func deleteStandsBefore(_ row: PendingRow) throws -> Bool {
        guard row.registers.contains(.insert), !row.registers.contains(.delete),
              let insert = try Outbox.latestPendingSeq(.insert, row.table.name, row.encodedKey, connection),
              let delete = try Outbox.latestPendingSeq(.delete, row.table.name, row.encodedKey, connection) else { return false }
        return delete < insert
    }
}
#endif
