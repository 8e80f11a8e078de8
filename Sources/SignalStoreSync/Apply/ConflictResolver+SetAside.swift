#if SIGNALSTORE_SYNC
import SignalStore

/// Setting this replica's pending changes aside (their rows back to the server state), and
/// applying them again after a downloaded change: one that no longer fits loses.
extension ConflictResolver {
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

    /// Applies the downloaded delete `remote` of a row whose newer insert is pending here,
    /// and returns whether it did: the row is set aside (deleted, as the log has it then, its
    /// `ON DELETE` action acting on the rows that reference it), and inserted again.
    ///
    /// Every other replica applies the delete before this replica's insert, and the action acts
    /// there; skipping it here kept an order's reference that the others had set to NULL
    /// (seen by the chaos test).
    func deleteUnderPendingInsert(_ remote: RemoteEntry, _ table: CapturedTable) throws -> Bool {
        let states = try StampTable.states(table.name, remote.entry.key, connection)
        guard let insert = states[.insert], insert.isPending(origin: origin), let server = insert.server, server.stamp < remote.stamp,
              let key = SyncValueCoding.decodeKey(remote.entry.key), try localRow(table, key) != nil else { return false }
        try rebase([PendingRow(table: table, key: key, registers: [.insert])], under: remote) {
            try recordingActions(of: table, key: remote.entry.key) { try KeyedRow.write(nil, key: key, in: table.schema, connection) }
        }
        return true
    }

    func rebase<Result>(_ rows: [PendingRow], collidedWith: String, _ body: () throws -> Result) throws -> Result {
        guard !rows.isEmpty else { return try body() }
        let (ordered, parents) = try withDependents(rows)
        let saved = try ordered.map { row in (row: row, local: try localRow(row.table, row.key)) }
        do {
            try writeServerStates(ordered)
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            throw SetAsideFailure(error: error)
        }
        let names = Set(ordered.map(\.name))
        setAside = names
        let result: Result
        do {
            defer { setAside = [] }
            result = try body()
        }
        var lost: [String: String] = [:]   // row name → what made it lose
        for step in try replaySteps(ordered) {
            let item = saved[step.index]
            guard let row = try stillPending(step.row), let rule = try reapplied(row, local: item.local, besides: names) else { continue }
            var reason = collidedWith
            if let parent = parents[item.row.name], let parentLost = lost[parent.name] {
                reason = "\(parent.describeChange) from this replica, which lost to \(parentLost)"
            }
            do {
                try lose(row, local: item.local, rule: rule, collidedWith: reason)
            } catch let error as SQLiteError where error.code == SQLiteError.constraint {
                // Undoing this replica's own change met the rows here: they are not the log's,
                // which says nothing about whether the downloaded change fits there.
                stuck = "\(row.table.name) [\(row.key.map(\.description).joined(separator: ", "))] could not go back to the log's row: " + error.message
                throw SetAsideFailure(error: error)
            }
            lost[item.row.name] = reason
        }
        return result
    }

    /// The set-aside changes of `rows` in the order they were made here (by their latest
    /// pending seq), a row's changes made one after another kept together (one statement's,
    /// which a CHECK may read together); with the index in `rows` of each step's row. A delete
    /// followed by an insert of the row are two steps: the insert can lose while the delete
    /// stands, as where the outbox is replayed entry by entry (``RemoteApplier/settlePending()``).
    ///
    /// Row by row, a later change of one row could go back before an earlier one of another:
    /// a customer's new email, taken after another customer here was deleted, went back while
    /// that customer was still there, and lost (issue 39, report 1).
    func replaySteps(_ rows: [PendingRow]) throws -> [(index: Int, row: PendingRow)] {
        var changes: [(seq: Int64, index: Int, register: Register)] = []
        for (index, row) in rows.enumerated() {
            for register in row.registers {
                changes.append((try Outbox.latestPendingSeq(register, row.table.name, row.encodedKey, connection) ?? .max, index, register))
            }
        }
        changes.sort { ($0.seq, $0.index) < ($1.seq, $1.index) }
        var steps: [(index: Int, row: PendingRow)] = []
        for change in changes {
            if let last = steps.last, last.index == change.index, !(last.row.registers.contains(.delete) && change.register == .insert) {
                steps[steps.count - 1].row = PendingRow(table: last.row.table, key: last.row.key, registers: last.row.registers + [change.register])
            } else {
                let row = rows[change.index]
                steps.append((change.index, PendingRow(table: row.table, key: row.key, registers: [change.register])))
            }
        }
        return steps
    }

    /// `row`, when it goes back to the server state whole (its insert or delete set aside), with
    /// every pending column change of this replica's to it too: the server state overwrites
    /// them all, and each that still acts is applied again after the downloaded change.
    ///
    /// Left out, a change of a column made here after another replica's later insert of the
    /// row was gone from the row for good once the row was set aside under its own older
    /// delete (which no longer acts), while the change went up and stood on every other replica
    /// (chaos seed 74 with faults, amplified: a customer's delete set the row aside).
    func withPendingColumns(_ row: PendingRow) throws -> PendingRow {
        guard row.isWholeRow else { return row }
        let columns = try StampTable.states(row.table.name, row.encodedKey, connection)
            .filter { register, state in register.column != nil && state.isPending(origin: origin) }
            .map(\.key)
            .sorted { $0.name < $1.name }
        return row.merged(with: PendingRow(table: row.table, key: row.key, registers: columns)) ?? row
    }

    /// `row` with only the registers whose pending change the downloaded change left standing,
    /// or `nil` if none is: a later insert of the row from the log is its latest incarnation,
    /// so this replica's older insert, and a delete or a column change older than it, no
    /// longer act (by the registers, a column holds the insert's value unless its update is
    /// later). Written again, an order inserted here overwrote another replica's later insert
    /// of it (chaos seed 10 with faults), and an older change of an order's `purchase_num`
    /// overwrote the later insert's value on one replica only (chaos seed 137 with faults).
    func stillPending(_ row: PendingRow) throws -> PendingRow? {
        let states = try StampTable.states(row.table.name, row.encodedKey, connection)
        let registers = row.registers.filter { register in
            guard let state = states[register], state.isPending(origin: origin) else { return false }
            return register == .insert || states.outlivesLatestInsert(state.current.stamp, pendingHere: origin)
        }
        if registers.isEmpty { return nil }
        return registers == row.registers ? row : PendingRow(table: row.table, key: row.key, registers: registers)
    }

    /// Writes a set-aside row's pending changes again; returns the rule they break, or `nil`.
    ///
    /// What the schema's foreign key actions did to other rows than the set-aside ones
    /// (`besides`, by ``PendingRow/name``) becomes this replica's pending changes
    /// (``Outbox/stampActions(after:besides:_:clock:origin:_:)``).
    func reapplied(_ row: PendingRow, local: [String: SQLiteValue]?, besides names: Set<String>) throws -> String? {
        do {
            try connection.transaction {
                let before = try Journal.highestSeq(connection)
                try writePending(row, local: local)
                try Outbox.stampActions(after: before, besides: { names.contains(PendingRow.name($0, $1)) }, tables, clock: &clock, origin: origin, connection)
            }
            return nil
        } catch let error as SQLiteError where error.code == SQLiteError.constraint {
            return error.message
        }
    }

    /// `rows` and, transitively, the pending rows that reference a row whose insert or
    /// referenced columns are set aside, the oldest first (by their first pending change),
    /// with the row each added one references. A row set aside whole takes its pending column
    /// changes along (``withPendingColumns(_:)``).
    ///
    /// Setting a parent aside without its pending children would let the schema's `ON DELETE`
    /// action change them behind the rule's back (a child then kept a `NULL` its outbox does
    /// not hold); set aside together, a child is applied again after its parent, and loses if
    /// its parent lost, as when the log is replayed without the parent.
    func withDependents(_ rows: [PendingRow]) throws -> (rows: [PendingRow], parents: [String: PendingRow]) {
        var byName: [String: PendingRow] = [:]
        var parents: [String: PendingRow] = [:]
        var queue = rows
        while let popped = queue.popLast() {
            let row = try withPendingColumns(popped)
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

    static func describe(_ remote: RemoteEntry) -> String {
        let entry = remote.entry
        let change = SyncConflict.describeChange(entry.operation, column: entry.column, table: entry.table, key: SyncValueCoding.decodeKey(entry.key) ?? [])
        return "\(change) by replica \(remote.origin), server log position \(remote.position)"
    }

    /// Writes the row's set-aside registers as the server's log has them.
    func writeServerState(_ row: PendingRow) throws {
        guard let server = try StampTable.serverRow(row.table.name, row.encodedKey, connection) else {
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

    /// Writes the row's set-aside registers as they were here before. A row deleted here and
    /// inserted again is deleted first: the delete's `ON DELETE` action acts on the rows that
    /// reference it now, as where the log puts the delete.
    ///
    /// Pending column changes of a row that was not here (another replica deleted it) go on the
    /// row if the downloaded change brought it back, as they do where the log puts them after
    /// that insert (chaos seed 24).
    func writePending(_ row: PendingRow, local: [String: SQLiteValue]?) throws {
        if row.registers == [.delete] {
            try writeWholeRow(row, nil)   // its own step: a later insert of the row is the next
        } else if row.isWholeRow {
            if local != nil, row.registers.contains(.delete) { try writeWholeRow(row, nil) }
            try writeWholeRow(row, local)
        } else if let local {
            try writeColumns(row, from: local)
        } else {
            try writeColumns(row, from: pendingValues(of: row))
        }
    }

    /// The values of the row's set-aside column registers as this replica has them.
    func pendingValues(of row: PendingRow) throws -> [String: SQLiteValue] {
        var values: [String: SQLiteValue] = [:]
        for case .column(let column) in row.registers {
            let stored = try StampTable.stamp(row.table.name, row.encodedKey, .column(column), connection)
            values[column] = stored?.value.flatMap(SyncValueCoding.decode) ?? .null
        }
        return values
    }

    func writeColumns(_ row: PendingRow, from values: [String: SQLiteValue]) throws {
        guard try localRow(row.table, row.key) != nil else { return }
        try KeyedRow.update(row.registers.compactMap(\.column), to: values, key: row.key, in: row.table.schema, connection)
    }

    /// Makes the row hold `values`, or not exist for `nil`.
    func writeWholeRow(_ row: PendingRow, _ values: [String: SQLiteValue]?) throws {
        try KeyedRow.write(values, key: row.key, in: row.table.schema, connection)
    }
}
#endif
