/// Generates the capture triggers of one table.
///
/// - Insert and delete: one entry with the whole row as a JSON object. Values are encoded so
///   they decode exactly: finite reals as numbers printed with `quote()` (which round-trips),
///   infinite reals as `{"$real": "Inf"}`, blobs as `{"$blob": "HEX"}`.
/// - Update: one trigger per column, `AFTER UPDATE OF column … WHEN OLD.column IS NOT
///   NEW.column`, so an update pays only for the columns it sets and writes one entry per
///   changed column, with the old and new value stored as they are.
/// - The trigger of the rowid-alias column (an `INTEGER PRIMARY KEY`) is created last. SQLite
///   fires the newest trigger first, so when one statement changes the key and other columns,
///   the key change is journaled before the entries that refer to the new rowid.
struct TriggerGenerator {
    static let prefix = "_signalstore:"

    let table: String
    let columns: [String]
    /// The column that aliases the rowid, if any.
    let rowIDAlias: String?

    /// Trigger name → `CREATE TRIGGER` SQL, in creation order.
    var triggers: [(name: String, sql: String)] {
        var result = [insertTrigger, deleteTrigger]
        let ordinary = columns.filter { $0 != rowIDAlias }
        result += ordinary.map(updateTrigger)
        if let rowIDAlias { result.append(updateTrigger(for: rowIDAlias)) }
        return result
    }

    /// SQL that journals every existing row as an insert (when capture starts on a table that
    /// already has rows).
    var snapshotSQL: String {
        """
        INSERT INTO \(Journal.changes) (table_name, row_id, operation, column_name, old_value, new_value, timestamp) \
        SELECT \(literal(table)), rowid, 'insert', NULL, NULL, \(rowJSON(prefix: nil)), \(Journal.now) \
        FROM \(identifier(table)) ORDER BY rowid
        """
    }

    private var insertTrigger: (name: String, sql: String) {
        let name = Self.prefix + table + ":insert"
        return (name, """
            CREATE TRIGGER \(identifier(name)) AFTER INSERT ON \(identifier(table)) FOR EACH ROW BEGIN \
            INSERT INTO \(Journal.changes) (table_name, row_id, operation, column_name, old_value, new_value, timestamp) \
            VALUES (\(literal(table)), NEW.rowid, 'insert', NULL, NULL, \(rowJSON(prefix: "NEW")), \(Journal.now)); END
            """)
    }

    private var deleteTrigger: (name: String, sql: String) {
        let name = Self.prefix + table + ":delete"
        return (name, """
            CREATE TRIGGER \(identifier(name)) AFTER DELETE ON \(identifier(table)) FOR EACH ROW BEGIN \
            INSERT INTO \(Journal.changes) (table_name, row_id, operation, column_name, old_value, new_value, timestamp) \
            VALUES (\(literal(table)), OLD.rowid, 'delete', NULL, \(rowJSON(prefix: "OLD")), NULL, \(Journal.now)); END
            """)
    }

    private func updateTrigger(for column: String) -> (name: String, sql: String) {
        let name = Self.prefix + table + ":update:" + column
        let old = "OLD.\(identifier(column))"
        let new = "NEW.\(identifier(column))"
        // The key change is journaled against the old rowid: the row it moves.
        let rowID = column == rowIDAlias ? "OLD.rowid" : "NEW.rowid"
        return (name, """
            CREATE TRIGGER \(identifier(name)) AFTER UPDATE OF \(identifier(column)) ON \(identifier(table)) \
            FOR EACH ROW WHEN \(old) IS NOT \(new) BEGIN \
            INSERT INTO \(Journal.changes) (table_name, row_id, operation, column_name, old_value, new_value, timestamp) \
            VALUES (\(literal(table)), \(rowID), 'update', \(literal(column)), \(old), \(new), \(Journal.now)); END
            """)
    }

    /// A JSON object of the row. `json_object` takes at most 127 arguments, so wide tables are
    /// built from chunks merged with `json_patch`.
    private func rowJSON(prefix: String?) -> String {
        let chunks = stride(from: 0, to: max(columns.count, 1), by: 60).map { start in
            let pairs = columns[start..<min(start + 60, columns.count)].map { column in
                let value = prefix.map { "\($0).\(identifier(column))" } ?? identifier(column)
                return "\(literal(column)), \(encoded(value))"
            }
            return "json_object(\(pairs.joined(separator: ", ")))"
        }
        return chunks.dropFirst().reduce(chunks[0]) { "json_patch(\($0), \($1))" }
    }

    /// One value, encoded for exact decoding (see the type's documentation).
    private func encoded(_ value: String) -> String {
        """
        CASE typeof(\(value)) \
        WHEN 'real' THEN CASE WHEN abs(\(value)) < 9e999 THEN json(quote(\(value))) ELSE json_object('$real', quote(\(value))) END \
        WHEN 'blob' THEN json_object('$blob', hex(\(value))) \
        ELSE \(value) END
        """
    }
}

/// `name` as a quoted SQL identifier.
func identifier(_ name: String) -> String {
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// `text` as a SQL string literal.
func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
