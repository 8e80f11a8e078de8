extension Journal {
    /// The primary key each entry's row had when the entry was written, by seq; entries of
    /// tables with no key (as `keyColumns` says) are left out.
    ///
    /// An update carries only a rowid, and the row may have changed key or gone since. The
    /// entries are walked from the newest back, from the rows as they are now: a later delete,
    /// insert or key change tells what the key was. Call inside a transaction that sees the
    /// journal's head, so "now" is just after the last entry.
    /// - Parameters:
    ///   - keyColumns: A table's primary-key columns, in key order; `nil` or empty for a table
    ///     whose rows are named by rowid only.
    ///   - keyingInserts: `false` leaves inserts out (see ``KeyWalk/keys(of:keyColumns:keyingInserts:_:)``).
    package static func keysAtWrite(
        _ entries: [Change], keyColumns: (String) -> [String]?, keyingInserts: Bool = true, _ connection: Connection
    ) throws -> [Int64: [SQLiteValue]] {
        var walk = KeyWalk()
        return try walk.keys(of: entries, keyColumns: keyColumns, keyingInserts: keyingInserts, connection)
    }

    /// The values of the key columns `keyColumns` (in key order) in a row given as its members
    /// (``Change/rowMembers``), or `nil` if the row lacks one.
    package static func key(_ keyColumns: [String], of row: [(column: String, value: SQLiteValue)]) -> [SQLiteValue]? {
        let values = keyColumns.compactMap { column in row.first { $0.column == column }?.value }
        return values.count == keyColumns.count ? values : nil
    }

    /// A walk back through the journal that finds the key each entry's row had when the entry
    /// was written (see ``keysAtWrite(_:keyColumns:_:)``), one window of entries at a time:
    /// give it the windows from the newest to the oldest. Between windows it keeps only the
    /// rows that a later entry deleted or gave another key, so a transaction of any size is
    /// walked in the memory of one window (and of its deleted rows' keys).
    package struct KeyWalk {
        private struct RowID: Hashable { let table: String; let rowID: Int64 }
        /// Walking back: the key a row had just after the entry last walked, where that is not
        /// the row's key now (a later delete or key change).
        private var keyAfter: [RowID: [SQLiteValue]] = [:]

        package init() {}

        /// The keys of one window's entries (in seq order), by seq. The windows after it must
        /// have been walked already.
        /// - Parameter keyingInserts: `false` leaves inserts out of the result, for a caller
        ///   that reads each insert's row anyway (its key is in it) and need not pay for
        ///   decoding it twice; the walk is the same.
        package mutating func keys(
            of entries: [Change], keyColumns: (String) -> [String]?, keyingInserts: Bool = true, _ connection: Connection
        ) throws -> [Int64: [SQLiteValue]] {
            var keys: [Int64: [SQLiteValue]] = [:]
            var current: [RowID: [SQLiteValue]?] = [:]   // rows' keys now, looked up once per window
            for entry in entries.reversed() {
                guard let key = keyColumns(entry.table), !key.isEmpty else { continue }
                let id = RowID(table: entry.table, rowID: entry.rowID)
                switch entry.operation {
                case .insert where !keyingInserts:
                    // Before an insert the rowid was free (entries before it name an earlier
                    // row, whose delete comes first on the way back).
                    keyAfter[id] = nil
                case .insert, .delete:
                    guard let row = entry.rowMembers, let values = Journal.key(key, of: row) else { continue }
                    keys[entry.seq] = values
                    // Before an insert the rowid was free (entries before it name an earlier
                    // row, whose delete comes first on the way back).
                    if entry.operation == .insert { keyAfter[id] = nil } else { keyAfter[id] = values }
                case .update where key.count == 1 && entry.column == key[0]:
                    // A one-column key changed: the entry itself says what it was. (The row may
                    // now live under another rowid: an INTEGER PRIMARY KEY is the rowid.)
                    let values = [entry.oldValue ?? .null]
                    keys[entry.seq] = values
                    keyAfter[id] = values
                case .update:
                    var after: [SQLiteValue]?
                    if let known = keyAfter[id] {
                        after = known
                    } else if let looked = current[id] {
                        after = looked
                    } else {
                        after = try Self.currentKey(of: entry.rowID, entry.table, key, connection)
                        current[id] = .some(after)
                    }
                    guard var values = after else { continue }
                    if let column = entry.column, let index = key.firstIndex(of: column) {
                        values[index] = entry.oldValue ?? .null
                        keyAfter[id] = values
                    }
                    keys[entry.seq] = values
                }
            }
            return keys
        }

        private static func currentKey(of rowID: Int64, _ table: String, _ key: [String], _ connection: Connection) throws -> [SQLiteValue]? {
            try connection.rows(RowSQL.read(key, from: table, at: .rowID(rowID))).first
        }
    }
}
