/// Journaling an insert by hand, for a writer that writes many rows it already holds as values
/// (sync applying another replica's big transaction): the insert trigger's work, without the
/// trigger programs that cost more than the row itself.
///
/// The writer switches its connection to ``HandJournaling`` around a run of plain `INSERT`s
/// into tables that ``insertsCanBeJournaledByHand(_:_:)`` allows, and after each row calls
/// ``journalInsert(into:rowID:row:_:)`` with ``storedRow(of:columns:values:)``: the same entry
/// the trigger writes, read back as the same values. A row whose stored values it cannot be
/// sure of goes in with the triggers on.
extension Journal {
    /// A write connection's switch between the capture triggers and journaling by hand.
    ///
    /// On, the connection's persistent triggers are off (``Connection/firesPersistentTriggers``:
    /// the capture triggers, and any other, so only tables whose sole triggers are the capture
    /// triggers may be written) and the store's own-entry `TEMP` trigger on the journal is set
    /// aside (a trigger on the journal would make SQLite keep a statement journal for every
    /// entry written by hand, which costs more than the entry). Off puts both back. Each switch
    /// makes SQLite prepare the connection's statements again: switch around runs of rows.
    /// Use it inside a write transaction, and switch it off before the transaction ends, also
    /// when it fails.
    package struct HandJournaling {
        /// Whether the connection journals by hand now.
        package private(set) var isOn = false
        /// Whether the own-entry trigger was set aside, and is to come back.
        private var ownEntryTriggerSetAside = false

        package init() {}

        /// Switches `connection` to journaling by hand (`on`) or back to the triggers.
        package mutating func set(_ on: Bool, _ connection: Connection) throws {
            guard on != isOn else { return }
            if on {
                ownEntryTriggerSetAside = try OwnEntryCapture.setAsideTrigger(on: connection)
                connection.firesPersistentTriggers = false
            } else {
                connection.firesPersistentTriggers = true
                if ownEntryTriggerSetAside { try OwnEntryCapture.restoreTrigger(on: connection) }
                ownEntryTriggerSetAside = false
            }
            isOn = on
        }
    }

    /// Whether the store's own triggers (named with ``CaptureTriggers/prefix``) are the only
    /// triggers on `table`, its insert trigger among them (a user's trigger would be skipped
    /// with them), so an insert into it can be journaled by hand.
    package static func insertsCanBeJournaledByHand(_ table: CapturedTable, _ connection: Connection) throws -> Bool {
        let present = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?")
            .rows([.text(table.name)])
            .compactMap(\.first?.textValue)
        return present.allSatisfy { $0.hasPrefix(CaptureTriggers.prefix) } && present.contains(CaptureTriggers.prefix + table.name + ":insert")
    }

    /// The row an `INSERT` of `values` into `columns` stores, in schema order, or `nil` when
    /// it cannot be known without reading it back: a column of the table is not given (its
    /// default decides), or a value is one its column's affinity converts
    /// (``ColumnAffinity/keeps(_:)``).
    package static func storedRow(of table: CapturedTable, columns: [String], values: [SQLiteValue]) -> [(String, SQLiteValue)]? {
        guard columns.count == table.columns.count else { return nil }
        var row: [(String, SQLiteValue)] = []
        row.reserveCapacity(columns.count)
        // An index loop, not `enumerated()`: the generic iterator is a call per column in a
        // debug build (`swift run`), and sync journals a row this way per applied insert.
        let schemaColumns = table.schema.columns
        var index = 0
        while index < schemaColumns.count {
            let column = schemaColumns[index]
            let given = columns[index] == column.name ? index : columns.firstIndex(of: column.name)
            guard let given, column.affinity.keeps(values[given]) else { return nil }
            row.append((column.name, values[given]))
            index += 1
        }
        return row
    }

    /// Journals the insert of `row` (``storedRow(of:columns:values:)``) into `table` at
    /// `rowID`, as the insert trigger would: one `insert` entry with the whole row as JSON.
    /// Call it right after the row's `INSERT`, in the same transaction, with ``HandJournaling`` on.
    package static func journalInsert(into table: String, rowID: Int64, row: [(String, SQLiteValue)], _ connection: Connection) throws {
        try connection.statement(insertEntrySQL).run([.text(table), .integer(rowID), .text(JSONValue.rendered(row: row))])
    }

    private static let insertEntrySQL = "INSERT INTO \(changes) (\(insertColumns)) VALUES (?, ?, 'insert', NULL, NULL, ?, \(now))"
}
