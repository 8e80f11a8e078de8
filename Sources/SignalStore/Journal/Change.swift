import Foundation

/// One entry of the change feed: a row inserted or deleted, or one column of a row updated.
///
/// Entries are written by triggers in the same transaction as the change, by whichever process
/// made it, and numbered by a strictly increasing `seq`.
/// ```swift
/// store.changes(since: 0).subscribe(onValue: { change in
///     print(change.seq, change.table, change.rowID, change.operation, change.column ?? "*")
/// })
/// ```
public struct Change: Sendable, Equatable, CustomStringConvertible {
    /// What happened to the row.
    public enum Operation: String, Sendable, Equatable {
        /// A row was inserted; ``Change/newValue`` holds the whole row as JSON.
        case insert
        /// One column changed; ``Change/oldValue`` and ``Change/newValue`` hold its values.
        case update
        /// A row was deleted; ``Change/oldValue`` holds the whole row as JSON.
        case delete

        /// The operation the journal's `op` column names: `init(rawValue:)` without its string
        /// switch, which costs more than the rest of reading an entry's names.
        init?(journalName name: String) {
            switch name.utf8.first {
            case UInt8(ascii: "u") where name == "update": self = .update
            case UInt8(ascii: "i") where name == "insert": self = .insert
            case UInt8(ascii: "d") where name == "delete": self = .delete
            default: return nil
            }
        }
    }

    /// The entry's position in the feed; strictly increasing, never reused.
    public let seq: Int64
    /// The table changed.
    public let table: String
    /// The rowid of the row changed. For a change of an `INTEGER PRIMARY KEY` column, the rowid
    /// before the change.
    public let rowID: Int64
    /// Insert, update or delete.
    public let operation: Operation
    /// The column, for updates; `nil` for whole-row entries (insert and delete).
    public let column: String?
    /// Updates: the column's previous value. Deletes: the whole row as JSON text. Inserts: `nil`.
    public let oldValue: SQLiteValue?
    /// Updates: the column's new value. Inserts: the whole row as JSON text. Deletes: `nil`.
    public let newValue: SQLiteValue?
    /// When the change was committed (the writer's clock).
    public let timestamp: Date

    /// Creates an entry.
    public init(
        seq: Int64, table: String, rowID: Int64, operation: Operation, column: String?,
        oldValue: SQLiteValue?, newValue: SQLiteValue?, timestamp: Date
    ) {
        self.seq = seq
        self.table = table
        self.rowID = rowID
        self.operation = operation
        self.column = column
        self.oldValue = oldValue
        self.newValue = newValue
        self.timestamp = timestamp
    }

    /// For inserts and deletes: the row's columns and values, decoded exactly from the JSON
    /// (reals keep every bit, blobs their bytes). `nil` for updates.
    public var row: [String: SQLiteValue]? {
        switch operation {
        case .insert: if case .text(let json) = newValue { return RowJSON.decode(json) }
        case .delete: if case .text(let json) = oldValue { return RowJSON.decode(json) }
        case .update: break
        }
        return nil
    }

    /// For inserts and deletes: the row's columns and values as ``row`` has them, in the table's
    /// column order, read without building a dictionary. `nil` for updates.
    package var rowMembers: [(column: String, value: SQLiteValue)]? {
        switch operation {
        case .insert: if case .text(let json) = newValue { return RowJSON.decodeMembers(json) }
        case .delete: if case .text(let json) = oldValue { return RowJSON.decodeMembers(json) }
        case .update: break
        }
        return nil
    }

    /// `#12 orders[42] update purchase_num: 1 → 3`
    public var description: String {
        switch operation {
        case .update:
            return "#\(seq) \(table)[\(rowID)] update \(column ?? "?"): \(oldValue?.description ?? "NULL") → \(newValue?.description ?? "NULL")"
        case .insert, .delete:
            let json: String
            if case .text(let text) = operation == .insert ? newValue : oldValue { json = RowJSON.canonical(text) } else { json = "" }
            return "#\(seq) \(table)[\(rowID)] \(operation.rawValue) \(json)"
        }
    }

    /// Reads an entry from a row of `SELECT \(Journal.selectColumns)`.
    init?(row: [SQLiteValue]) {
        guard row.count == 8 else { return nil }
        self.init(column: { row[$0] })
    }

    /// Reads an entry from the columns of a row of `SELECT \(Journal.selectColumns)`, read one at
    /// a time by `column` (so a statement's current row is read without building an array).
    init?(column: (Int) -> SQLiteValue) {
        guard case .integer(let seq) = column(0), case .text(let table) = column(1), case .integer(let rowID) = column(2),
              case .text(let operationName) = column(3), let operation = Operation(journalName: operationName),
              let seconds = Double(sqliteValue: column(7))
        else { return nil }
        let name: String? = if case .text(let name) = column(4) { name } else { nil }
        let isUpdate = operation == .update
        let oldValue = column(5)
        let newValue = column(6)
        self.init(
            seq: seq, table: table, rowID: rowID, operation: operation, column: name,
            oldValue: isUpdate || !oldValue.isNull ? oldValue : nil,
            newValue: isUpdate || !newValue.isNull ? newValue : nil,
            timestamp: Date(timeIntervalSince1970: seconds)
        )
    }
}
