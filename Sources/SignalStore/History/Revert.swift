/// Puts back what a range of journal entries changed, as one ordinary write: newest entry
/// first, an update gets its old value back, an insert is deleted, a delete is inserted again
/// with its whole row (and its rowid).
///
/// Built from the entries inside the writer's transaction. ``conflicts(_:)`` finds the later
/// entries that changed a row or column of the range again; ``apply(overwritingLaterChanges:_:)``
/// writes.
struct Revert {
    let range: ClosedRange<Int64>
    let entries: [Change]
    private var schemas: [String: TableSchema] = [:]

    /// Reads the range's entries and the schema of each table they name.
    /// - Throws: ``StoreError/invalidArgument(_:)`` for a range outside the feed, one that a
    ///   migration splits, or a table that no longer exists;
    ///   ``StoreError/changeFeedGap(since:prunedThrough:)`` for a pruned one.
    init(_ range: ClosedRange<Int64>, _ schema: SchemaCache, _ connection: Connection) throws {
        let last = try Journal.highestSeq(connection)
        guard range.lowerBound >= 1, range.upperBound <= last else {
            throw StoreError.invalidArgument("cannot revert seq \(range.lowerBound)...\(range.upperBound): the change feed has entries 1...\(last); give a range inside it")
        }
        if let migration = try AppliedMigration.all(connection).first(where: { migration in
            migration.afterSeq.map { range.lowerBound <= $0 && $0 < range.upperBound } ?? false
        }) {
            let seq = migration.afterSeq ?? 0
            throw StoreError.invalidArgument("cannot revert seq \(range.lowerBound)...\(range.upperBound): migration \(migration.version) (\(migration.name)) changed the schema after seq \(seq), and schema changes are not in the change feed; revert seq \(range.lowerBound)...\(seq) and seq \(seq + 1)...\(range.upperBound) separately")
        }
        self.range = range
        entries = try Journal.entries(in: range, connection)
        for table in Set(entries.map(\.table)) {
            guard let schema = try schema.table(table, connection) else {
                throw StoreError.invalidArgument("cannot revert seq \(range.lowerBound)...\(range.upperBound): it changed table \(table), which no longer exists; revert a range that changed only existing tables")
            }
            schemas[table] = schema
        }
    }

    /// The entries after `seq` (at or after the range's end) that changed again a row the range
    /// inserted, deleted or re-keyed, or a column the range updated, in seq order.
    func conflicts(after seq: Int64, _ connection: Connection) throws -> [Change] {
        let touched = footprint()
        var conflicts: [Change] = []
        var after = seq
        while true {
            let page = try Journal.entries(after: after, limit: 5_000, connection)
            conflicts += page.filter { collides($0, with: touched) }
            guard let last = page.last else { return conflicts }
            after = last.seq
        }
    }

    /// Writes the old values back, newest entry first.
    /// - Parameter overwritingLaterChanges: Whether later changes may be overwritten: a deleted
    ///   row is then inserted or replaced, and an update of a row that is gone writes nothing.
    /// - Throws: ``StoreError/invalidArgument(_:)`` when a row is not as the journal left it
    ///   (a migration or a write made without capture changed it), or SQLite's error.
    func apply(overwritingLaterChanges overwriting: Bool, _ connection: Connection) throws {
        for entry in entries.reversed() {
            guard let schema = schemas[entry.table] else { continue }
            let (sql, arguments) = try statement(undoing: entry, schema, overwriting: overwriting)
            try connection.statement(sql).run(arguments)
            if connection.changes == 0, !overwriting {
                throw StoreError.invalidArgument("cannot revert seq \(entry.seq): row \(entry.table)[\(entry.rowID)] is no longer as the change feed left it (a migration or a write without capture changed it); nothing was written")
            }
        }
    }

    /// The statement that undoes one entry, and its arguments.
    private func statement(undoing entry: Change, _ schema: TableSchema, overwriting: Bool) throws -> (String, [SQLiteValue]) {
        switch entry.operation {
        case .insert:
            return (RowSQL.delete(from: schema.name), [.integer(entry.rowID)])
        case .update:
            let column = entry.column ?? ""
            if isKey(column, of: schema), case .integer(let newKey)? = entry.newValue {
                return (RowSQL.update(schema.name, columns: [column]), [entry.oldValue ?? .null, .integer(newKey)])
            }
            return (RowSQL.update(schema.name, columns: [column]), [entry.oldValue ?? .null, .integer(entry.rowID)])
        case .delete:
            guard let row = entry.row else {
                throw StoreError.invalidArgument("cannot revert seq \(entry.seq): its deleted row is not readable JSON; nothing was written")
            }
            var columns = schema.columnNames.filter { row[$0] != nil }
            columns += row.keys.filter { !columns.contains($0) }.sorted()   // fails, naming the column, if the schema lost it
            var values = columns.map { row[$0] ?? .null }
            if schema.rowIDAlias == nil, !schema.isWithoutRowID {
                columns.insert("rowid", at: 0)
                values.insert(.integer(entry.rowID), at: 0)
            }
            return (RowSQL.insert(into: schema.name, columns: columns, orReplace: overwriting), values)
        }
    }

    /// What the range changed, by row: the whole row (inserted, deleted, re-keyed) or columns.
    private func footprint() -> [RowKey: Footprint] {
        var touched: [RowKey: Footprint] = [:]
        for entry in entries {
            let key = RowKey(table: entry.table, rowID: entry.rowID)
            switch entry.operation {
            case .insert, .delete:
                touched[key] = .wholeRow
            case .update:
                let column = entry.column ?? ""
                if let schema = schemas[entry.table], isKey(column, of: schema) {
                    touched[key] = .wholeRow
                    if case .integer(let newKey)? = entry.newValue { touched[RowKey(table: entry.table, rowID: newKey)] = .wholeRow }
                } else if case .columns(let columns)? = touched[key] {
                    touched[key] = .columns(columns.union([column]))
                } else if touched[key] == nil {
                    touched[key] = .columns([column])
                }
            }
        }
        return touched
    }

    /// Whether a later entry changed again what the range changed.
    private func collides(_ later: Change, with touched: [RowKey: Footprint]) -> Bool {
        let schema = schemas[later.table]
        if later.operation == .update, let schema, isKey(later.column ?? "", of: schema),
           case .integer(let newKey)? = later.newValue, touched[RowKey(table: later.table, rowID: newKey)] != nil {
            return true   // another row took a key the range used
        }
        switch touched[RowKey(table: later.table, rowID: later.rowID)] {
        case nil: return false
        case .wholeRow: return true
        case .columns(let columns):
            guard later.operation == .update, let column = later.column else { return true }
            return columns.contains(column) || schema.map { isKey(column, of: $0) } ?? false
        }
    }

    private func isKey(_ column: String, of schema: TableSchema) -> Bool {
        schema.rowIDAlias.map { $0.caseInsensitiveCompare(column) == .orderedSame } ?? false
    }

    private struct RowKey: Hashable {
        let table: String
        let rowID: Int64
    }

    private enum Footprint: Equatable {
        case wholeRow
        case columns(Set<String>)
    }
}
