/// Which keys (``ResultsKey/routingKeys(of:)``) the rows of a batch held, for the ``ResultsRouter``: from the entries (an
/// insert's or delete's row, an update of the key column's old and new value), and for rows
/// only other columns of which changed, read by rowid (``KeyColumnReads``: one read per batch
/// for every key column of the table).
struct RowKeys {
    /// The rows that held each key at some point of the batch.
    private(set) var rowsByKey: [SQLiteValue: Set<Int64>] = [:]

    /// The keys of `changes` (entries of `table`) in `column` (lowercased); `nil` when they
    /// cannot be told: an entry that may move a row to another rowid (an update of a column not
    /// in `stableColumns`, the model's columns other than its primary key), or a read that failed.
    init?(_ changes: [Change], column: String, stableColumns: Set<String>, reads: KeyColumnReads) {
        var unknown = Set<Int64>()
        var known = Set<Int64>()
        for change in changes {
            switch change.operation {
            case .insert, .delete:
                guard let value = change.rowMembers?.first(where: { $0.column.lowercased() == column })?.value else { return nil }
                add(value, change.rowID)
                known.insert(change.rowID)
            case .update:
                let changed = change.column?.lowercased() ?? "rowid"
                if changed == column {
                    add(change.oldValue ?? .null, change.rowID)
                    add(change.newValue ?? .null, change.rowID)
                    known.insert(change.rowID)
                } else if !stableColumns.contains(changed) {
                    return nil
                } else {
                    unknown.insert(change.rowID)
                }
            }
        }
        unknown.subtract(known)
        guard !unknown.isEmpty else { return }
        guard let read = reads.values(of: unknown, column: column) else { return nil }
        // A row not found was deleted by a later commit, whose entry names its key.
        for (rowID, value) in read { add(value, rowID) }
    }

    /// The keys a batch of one update of `column` (lowercased) reaches, each once: those of its
    /// old and its new value. `nil` for any other batch.
    static func keysOfOneUpdate(_ changes: [Change], column: String) -> [SQLiteValue]? {
        guard let (change, changed) = changes.onlyColumnUpdate, changed == column || changed.lowercased() == column else { return nil }
        let (old, new) = (change.oldValue ?? .null, change.newValue ?? .null)
        if let oldKey = ResultsKey.onlyRoutingKey(of: old), let newKey = ResultsKey.onlyRoutingKey(of: new) {
            return oldKey == newKey ? [oldKey] : [oldKey, newKey]
        }
        var keys = ResultsKey.routingKeys(of: old)
        for key in ResultsKey.routingKeys(of: new) where !keys.contains(key) {
            keys.append(key)
        }
        return keys
    }

    private mutating func add(_ value: SQLiteValue, _ rowID: Int64) {
        for key in ResultsKey.routingKeys(of: value) { rowsByKey[key, default: []].insert(rowID) }
    }
}

/// The key columns' values of a batch's rows, read for the ``ResultsRouter`` by rowid whatever
/// indexes the table has: every key column of the table at once, the first time one is asked
/// for, so results keyed by two columns (a parent's key and a status) cost a commit one read,
/// not two. Lives for one batch, on the thread that routes it.
final class KeyColumnReads {
    private let table: String
    private let columns: [String]
    private let store: Store?
    private var read: Set<Int64> = []
    /// Each read row's values, in `columns` order.
    private var values = [Int64: [SQLiteValue]]()

    /// Reads of `columns` (lowercased) of `table`.
    init(table: String, columns: [String], store: Store?) {
        self.table = table
        self.columns = columns
        self.store = store
    }

    /// The value of `column` of each of `rowIDs` that exists; `nil` when it cannot be read.
    func values(of rowIDs: Set<Int64>, column: String) -> [(Int64, SQLiteValue)]? {
        guard let index = columns.firstIndex(of: column) else { return nil }
        let missing = rowIDs.subtracting(read)
        if !missing.isEmpty {
            guard let store, let rows = try? readRows(missing, store) else { return nil }
            read.formUnion(missing)
            values.merge(rows) { _, new in new }
        }
        return rowIDs.compactMap { rowID in values[rowID].map { (rowID, $0[index]) } }
    }

    private func readRows(_ rowIDs: Set<Int64>, _ store: Store) throws -> [Int64: [SQLiteValue]] {
        let selected = columns.map { SQL("\(identifier: $0)").text }.joined(separator: ", ")
        let read = RowIDRead.text("SELECT rowid, \(selected) FROM \(SQL("\(identifier: table)").text) NOT INDEXED WHERE rowid", for: rowIDs)
        store.resultsKeyReadCount.withLock { $0 += 1 }
        return try store.readingRecentRows { connection in
            var rows = [Int64: [SQLiteValue]]()
            _ = try connection.statement(read.sql).map([read.rowIDs]) { row -> Void? in
                guard case .integer(let rowID) = row.column(0) else { return nil }
                rows[rowID] = (1...self.columns.count).map { row.column($0) }
                return nil
            }
            return rows
        }
    }
}
