/// The capture triggers of one table, in creation order.
///
/// - Insert and delete: one entry with the whole row as a JSON object. Values are encoded so
///   they decode exactly: finite reals as numbers printed with `quote()` (which round-trips),
///   infinite reals as `{"$real": "Inf"}`, blobs as `{"$blob": "HEX"}`.
/// - Update: one trigger per column, `AFTER UPDATE OF column … WHEN OLD.column IS NOT
///   NEW.column`, so an update pays only for the columns it sets and writes one entry per
///   changed column. A table without a rowid alias also journals a change of its rowid, as
///   column `rowid`.
/// - Evictions: rows that `REPLACE` conflict resolution deletes fire no delete trigger unless
///   the writer turned `recursive_triggers` on, which is off by default. A `BEFORE` trigger
///   stages the rows the new row could conflict with (by rowid and by every UNIQUE index) in
///   `_signalstore_evictions`; the `AFTER` trigger journals as deletes the staged rows that are
///   gone (or whose rowid the new row now holds), then clears the staging. It runs only when a
///   row is staged, which is rare: SQLite runs an `INSERT … SELECT` into a table with triggers
///   (the store's own connection has one on the journal) through a temporary table, built for
///   every row the statement writes even when the `SELECT` finds nothing. A row skipped by
///   `OR IGNORE` fires no `AFTER` trigger, so nothing is journaled; what it staged is cleared by
///   the next `BEFORE` trigger of the table, before anything reads it. The delete trigger
///   unstages the row it journals, so a writer with `recursive_triggers` on journals it once.
///
/// SQLite fires the newest `AFTER` trigger first. The rowid trigger is created after the column
/// triggers, so a key change is journaled before the entries that refer to the new rowid, and
/// each eviction trigger after the trigger of its statement, so an evicted row's delete comes
/// before the insert or update that evicted it.
struct CaptureTriggers {
    static let prefix = "_signalstore:"

    let table: CapturedTable

    private var name: String { table.name }
    private var quotedTable: String { quotedIdentifier(table.name) }

    /// Trigger name → `CREATE TRIGGER` SQL, in creation order.
    var all: [(name: String, sql: String)] {
        var triggers = [stageInsertEvictions, insertTrigger, journalInsertEvictions, deleteTrigger]
        triggers += table.columns.filter { $0 != table.rowIDAlias }.map(updateTrigger)
        triggers.append(table.rowIDAlias.map(updateTrigger) ?? rowIDUpdateTrigger)
        triggers += [stageUpdateEvictions, journalUpdateEvictions]
        return triggers + DeleteRuleTriggers(parent: table).all
    }

    /// SQL that journals every existing row as an insert (when capture starts on a table that
    /// already has rows).
    var snapshotSQL: String {
        """
        INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) \
        SELECT \(quotedLiteral(name)), rowid, 'insert', NULL, NULL, \(rowJSON(prefix: nil)), \(Journal.now) \
        FROM \(quotedTable) ORDER BY rowid
        """
    }

    private func trigger(_ suffix: String, _ timing: String, when condition: String? = nil, _ body: [String]) -> (name: String, sql: String) {
        let name = Self.prefix + name + ":" + suffix
        let when = condition.map { " WHEN " + $0 } ?? ""
        return (name, "CREATE TRIGGER \(quotedIdentifier(name)) \(timing) FOR EACH ROW\(when) BEGIN \(body.map { $0 + "; " }.joined())END")
    }

    private var stageInsertEvictions: (name: String, sql: String) {
        trigger("stage-insert", "BEFORE INSERT ON \(quotedTable)", [clearStaging, stageConflicts(excludingOld: false)])
    }

    private var insertTrigger: (name: String, sql: String) {
        trigger("insert", "AFTER INSERT ON \(quotedTable)", [
            "INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) VALUES (\(quotedLiteral(name)), NEW.rowid, 'insert', NULL, NULL, \(rowJSON(prefix: "NEW")), \(Journal.now))",
        ])
    }

    private var journalInsertEvictions: (name: String, sql: String) {
        trigger("evict-insert", "AFTER INSERT ON \(quotedTable)", when: anyStaged, [journalStaged, clearStaging])
    }

    private var deleteTrigger: (name: String, sql: String) {
        trigger("delete", "AFTER DELETE ON \(quotedTable)", [
            "DELETE FROM \(Journal.evictions) WHERE table_name = \(quotedLiteral(name)) AND row_id = OLD.rowid",
            "INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) VALUES (\(quotedLiteral(name)), OLD.rowid, 'delete', NULL, \(rowJSON(prefix: "OLD")), NULL, \(Journal.now))",
        ])
    }

    private func updateTrigger(for column: String) -> (name: String, sql: String) {
        let old = "OLD.\(quotedIdentifier(column))"
        let new = "NEW.\(quotedIdentifier(column))"
        // The key change is journaled against the old rowid: the row it moves.
        let rowID = column == table.rowIDAlias ? "OLD.rowid" : "NEW.rowid"
        return trigger("update:" + column, "AFTER UPDATE OF \(quotedIdentifier(column)) ON \(quotedTable)", when: "\(old) IS NOT \(new)", [
            "INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) VALUES (\(quotedLiteral(name)), \(rowID), 'update', \(quotedLiteral(column)), \(old), \(new), \(Journal.now))",
        ])
    }

    /// Without a rowid alias, `UPDATE t SET rowid = …` moves a row; journaled as column `rowid`.
    private var rowIDUpdateTrigger: (name: String, sql: String) {
        trigger("update:rowid", "AFTER UPDATE ON \(quotedTable)", when: "OLD.rowid IS NOT NEW.rowid", [
            "INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) VALUES (\(quotedLiteral(name)), OLD.rowid, 'update', 'rowid', OLD.rowid, NEW.rowid, \(Journal.now))",
        ])
    }

    private var stageUpdateEvictions: (name: String, sql: String) {
        trigger("stage-update", "BEFORE UPDATE\(conflictColumnsClause) ON \(quotedTable)", when: conflictColumnsChanged, [
            clearStaging, stageConflicts(excludingOld: true),
        ])
    }

    private var journalUpdateEvictions: (name: String, sql: String) {
        trigger("evict-update", "AFTER UPDATE\(conflictColumnsClause) ON \(quotedTable)", when: "(\(conflictColumnsChanged)) AND \(anyStaged)", [
            journalStaged, clearStaging,
        ])
    }

    /// The columns whose change can make an update conflict (`nil`: any column).
    private var conflictColumns: [String]? {
        guard let alias = table.rowIDAlias, !table.uniqueKeys.contains(where: \.readsAnyColumn) else { return nil }
        var columns = [alias]
        for key in table.uniqueKeys {
            for column in key.columns where !columns.contains(column) { columns.append(column) }
        }
        return columns
    }

    private var conflictColumnsClause: String {
        conflictColumns.map { " OF " + $0.map(quotedIdentifier).joined(separator: ", ") } ?? ""
    }

    /// The same condition in the `BEFORE` and the `AFTER` trigger (they see the same OLD and
    /// NEW), so the `AFTER` one runs only when the `BEFORE` one cleared the staging first (and
    /// then only if it staged a row: ``anyStaged``).
    private var conflictColumnsChanged: String {
        let columns = conflictColumns ?? table.columns
        return (["OLD.rowid IS NOT NEW.rowid"] + columns.map { "OLD.\(quotedIdentifier($0)) IS NOT NEW.\(quotedIdentifier($0))" })
            .joined(separator: " OR ")
    }

    /// Whether this table has a row staged (see the type's documentation).
    private var anyStaged: String {
        "EXISTS (SELECT 1 FROM \(Journal.evictions) WHERE table_name = \(quotedLiteral(name)))"
    }

    private var clearStaging: String {
        "DELETE FROM \(Journal.evictions) WHERE table_name = \(quotedLiteral(name))"
    }

    /// Stages the rows that conflict with NEW: the same rowid, or the same terms of a UNIQUE
    /// index (with its collation; for a partial index, among the rows in it).
    private func stageConflicts(excludingOld: Bool) -> String {
        let conditions = ["rowid = NEW.rowid"] + table.uniqueKeys.map(conflictCondition)
        let exclusion = excludingOld ? "rowid IS NOT OLD.rowid AND " : ""
        return """
            INSERT INTO \(Journal.evictions) (table_name, row_id, old_value) \
            SELECT \(quotedLiteral(name)), rowid, \(rowJSON(prefix: nil)) FROM \(quotedTable) \
            WHERE \(exclusion)(\(conditions.map { "(\($0))" }.joined(separator: " OR ")))
            """
    }

    private func conflictCondition(_ key: UniqueKey) -> String {
        let newRow = "(SELECT " + table.columns.map { "NEW.\(quotedIdentifier($0)) AS \(quotedIdentifier($0))" }.joined(separator: ", ") + ")"
        var parts = key.terms.map { term -> String in
            switch term {
            case .column(let column, let collation):
                return "\(quotedIdentifier(column)) = NEW.\(quotedIdentifier(column)) COLLATE \(quotedIdentifier(collation))"
            case .expression(let expression, let collation):
                return "(\(expression)) = (SELECT (\(expression)) FROM \(newRow)) COLLATE \(quotedIdentifier(collation))"
            }
        }
        if let condition = key.condition { parts.append("(\(condition))") }
        return parts.isEmpty ? "1" : parts.joined(separator: " AND ")
    }

    /// Journals, as deletes, the staged rows the statement really removed.
    private var journalStaged: String {
        """
        INSERT INTO \(Journal.changes) (\(Journal.insertColumns)) \
        SELECT table_name, row_id, 'delete', NULL, old_value, NULL, \(Journal.now) FROM \(Journal.evictions) AS staged \
        WHERE table_name = \(quotedLiteral(name)) \
        AND (row_id = NEW.rowid OR NOT EXISTS (SELECT 1 FROM \(quotedTable) WHERE rowid = staged.row_id)) ORDER BY row_id
        """
    }

    /// A JSON object of the row. `json_object` takes at most 127 arguments, so wide tables are
    /// built from chunks merged with `json_patch`.
    private func rowJSON(prefix: String?) -> String {
        let columns = table.columns
        let chunks = stride(from: 0, to: max(columns.count, 1), by: 60).map { start in
            let pairs = columns[start..<min(start + 60, columns.count)].map { column in
                let value = prefix.map { "\($0).\(quotedIdentifier(column))" } ?? quotedIdentifier(column)
                return "\(quotedLiteral(column)), \(encoded(value))"
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
