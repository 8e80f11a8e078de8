/// A journal entry as a test compares it: the entry, and its row's primary key.
struct ArrivedChange: CustomStringConvertible {
    let change: Change
    /// The row's key: the key column's value, else the rowid.
    let id: SQLiteValue

    /// Whether the entry is the one `expected` describes.
    func matches(_ expected: ExpectedChange) -> Bool {
        guard change.table == expected.table, id == expected.id else { return false }
        switch (expected.kind, change.operation) {
        case (.insert(let columns), .insert):
            let row = change.row ?? [:]
            return columns.allSatisfy { row[$0.key] == $0.value }
        case (.update(let column, let old, let new), .update):
            return change.column == column && change.oldValue == old && change.newValue == new
        case (.delete, .delete):
            return true
        default:
            return false
        }
    }

    /// `update orders id=42 status 'open' → 'paid'`, in the form of ``ExpectedChange``'s.
    var description: String {
        switch change.operation {
        case .insert, .delete:
            let row = (change.row ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return "\(change.operation.rawValue) \(change.table) id=\(id)" + (change.operation == .insert ? " {\(row)}" : "")
        case .update:
            return "update \(change.table) id=\(id) \(change.column ?? "?") \(change.oldValue ?? .null) → \(change.newValue ?? .null)"
        }
    }

    /// The entries after `seq`, each with its row's key (its rowid when the table's key is the
    /// rowid or has several columns).
    static func all(after seq: Int64, in store: Store) throws -> [ArrivedChange] {
        try store.readConnection { connection in
            // One snapshot: the rows are exactly at the head of the journal it reads.
            let changes = try Journal.entries(after: seq, connection)
            var keyColumns: [String: [String]] = [:]
            for table in Set(changes.map(\.table)) {
                let schema = try store.schema.table(table, connection)
                keyColumns[table] = schema?.rowIDAlias == nil ? schema?.keyColumn.map { [$0.name] } : nil
            }
            let keys = try Journal.keysAtWrite(changes, keyColumns: { keyColumns[$0] }, connection)
            return changes.map { change in
                ArrivedChange(change: change, id: keys[change.seq]?.first ?? .integer(change.rowID))
            }
        }
    }
}
