#if SIGNALSTORE_SYNC
import SignalStore

/// Inserts by the register rule, and the prepared row writes they share with updates.
extension RemoteApplier {
    /// An insert's payload and its columns and values, in the order written.
    func insertedRow(_ remote: RemoteEntry, _ table: CapturedTable) throws -> (payload: String, columns: [String], values: [SQLiteValue]) {
        let entry = remote.entry
        guard let payload = entry.payload, let inserted = SyncValueCoding.decodeRowInOrder(payload) else {
            throw UnreadableEntry(remote: remote, reason: "it is an insert without a readable row")
        }
        let columns = inserted.map(\.column)
        if lastCheckedInsert?.table != entry.table || lastCheckedInsert?.columns != columns {
            try table.checkColumns(columns, writtenBy: remote)
            lastCheckedInsert = (entry.table, columns)
        }
        return (payload, columns, inserted.map(\.value))
    }

    /// The insert of a row that held no register here (``insertsUnregisteredRow(_:)``): it is
    /// the row's first change here, so no later change outlives it and no row is in its place.
    func applyFirstInsert(_ remote: RemoteEntry, _ table: CapturedTable) throws -> Bool {
        let (payload, columns, values) = try insertedRow(remote, table)
        try StampTable.raise(.insert, remote.entry.table, remote.entry.key, to: remote.stamp, value: payload, fromServer: true, connection)
        return try writeInserted(remote, table, nil, columns, values, remembering: false)
    }

    func applyInsert(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, fromServer: Bool) throws -> Bool {
        let entry = remote.entry
        let inserted = try insertedRow(remote, table)
        var columns = inserted.columns, values = inserted.values
        guard try StampTable.raise(.insert, entry.table, entry.key, to: remote.stamp, value: inserted.payload, fromServer: fromServer, connection) else { return false }
        insertStamps[RowName(table: entry.table, key: entry.key)] = remote.stamp
        // A row set aside under this insert takes the server's later registers: its own pending
        // ones are applied again after it (one that outlived the insert by its stamp would
        // otherwise meet the rows with its value here, and the insert would lose: chaos seed 24).
        let later = try StampTable.laterRegisters(entry.table, entry.key, server: resolver.isSetAside(entry.table, entry.key), connection)
        if let deleted = later.delete, deleted.stamp > remote.stamp { return false }
        // This insert is now the row's latest incarnation; later updates keep their values.
        for (column, register) in later.columns where register.stamp > remote.stamp && table.columns.contains(column) {
            let value = register.value.flatMap(SyncValueCoding.decode) ?? .null
            if let index = columns.firstIndex(of: column) { values[index] = value } else { columns.append(column); values.append(value) }
        }
        return try writeInserted(remote, table, rowID, columns, values)
    }

    /// Writes an insert's row: a new row (journaled by hand when the switch is on), or over
    /// the row that is here.
    /// - Parameter remembering: Whether the batch's memory of rows learns the new row's rowid
    ///   (not for a row's first insert: ``insertsUnregisteredRow(_:)``).
    func writeInserted(_ remote: RemoteEntry, _ table: CapturedTable, _ rowID: Int64?, _ columns: [String], _ values: [SQLiteValue], remembering: Bool = true) throws -> Bool {
        if handJournal.switcher.isOn {
            if rowID == nil, let row = Journal.storedRow(of: table, columns: columns, values: values) {
                try rowWrite(.insert, table, columns).run(values)
                let inserted = connection.lastInsertRowID
                if remembering { rowIDs[RowName(table: remote.entry.table, key: remote.entry.key)] = inserted }
                try Journal.journalInsert(into: table.name, rowID: inserted, row: row, connection)
                return true
            }
            try fallBackToTriggers()
        }
        if let rowID {
            try rowWrite(.update, table, columns).run(values + [.integer(rowID)])
        } else {
            try rowWrite(.insert, table, columns).run(values)
            if remembering { rowIDs[RowName(table: remote.entry.table, key: remote.entry.key)] = connection.lastInsertRowID }
        }
        return true
    }



    func rowWrite(_ kind: RowWrite.Kind, _ table: CapturedTable, _ columns: [String]) throws -> Statement {
        let write = RowWrite(kind: kind, table: table.name, columns: columns)
        if let last = lastRowWrite, last.write == write { return last.statement }
        let statement = try rowWrites[write] ?? connection.statement(kind == .insert ? RowSQL.insert(into: table.name, columns: columns) : RowSQL.update(table.name, columns: columns))
        rowWrites[write] = statement
        lastRowWrite = (write, statement)
        return statement
    }
}
#endif
