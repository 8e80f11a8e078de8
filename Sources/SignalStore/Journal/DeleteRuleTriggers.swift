/// The triggers that make a table's `ON DELETE` rules hold for every writer.
///
/// SQLite carries out `ON DELETE CASCADE`, `SET NULL` and `RESTRICT` only on connections that
/// turned `PRAGMA foreign_keys` on; the `sqlite3` shell and most other writers leave it off and
/// would leave dangling references. For each foreign key with one of those rules, the parent
/// table gets a `BEFORE DELETE` trigger that does what SQLite would:
/// - `CASCADE` deletes the referencing rows, whose own rules then apply in turn;
/// - `SET NULL` sets their referencing columns to NULL;
/// - `RESTRICT` fails the delete with a message that names both tables and says what to do.
///
/// On a connection with foreign keys on, the trigger runs first and SQLite's own action then
/// finds nothing left to do, so every writer gets the same rows and the same journal: the
/// referencing rows' entries, then the parent's delete, in one transaction.
///
/// Left to SQLite: `NO ACTION` (enforced at the end of the statement, or at commit when
/// deferred, which a trigger cannot do) and `SET DEFAULT`. Not covered: rows evicted by
/// `REPLACE` conflict resolution, which fire no delete trigger (with `recursive_triggers` off,
/// the default), and a self-referencing table's cascade goes one level deep for a writer with
/// foreign keys off (a trigger does not fire itself). `signalstore status` reports what is left
/// dangling.
///
/// The triggers are named with the capture triggers' prefix and live and die with them:
/// dropped before a migration (so rebuilding a referencing table by SQLite's 12-step procedure
/// does not trip over a trigger that names it) and created again after.
struct DeleteRuleTriggers {
    /// The table whose row deletions the rules follow.
    let parent: CapturedTable

    /// Trigger name → `CREATE TRIGGER` SQL, one per enforced foreign key.
    var all: [(name: String, sql: String)] {
        parent.referencedBy.compactMap(trigger)
    }

    private func trigger(for key: ForeignKey) -> (name: String, sql: String)? {
        let child = quotedIdentifier(key.child)
        let matches = zip(key.columns, key.referenced)
            .map { "\(quotedIdentifier($0)) = OLD.\(quotedIdentifier($1))" }
            .joined(separator: " AND ")
        let body: String
        switch key.onDelete {
        case .cascade:
            body = "DELETE FROM \(child) WHERE \(matches)"
        case .setNull:
            body = "UPDATE \(child) SET \(key.columns.map { "\(quotedIdentifier($0)) = NULL" }.joined(separator: ", ")) WHERE \(matches)"
        case .restrict:
            body = "SELECT RAISE(ABORT, \(quotedLiteral(restrictMessage(key)))) WHERE EXISTS (SELECT 1 FROM \(child) WHERE \(matches))"
        case .noAction, .setDefault:
            return nil
        }
        let name = CaptureTriggers.prefix + parent.name + ":on-delete:" + key.child + "(" + key.columns.joined(separator: ",") + ")"
        let sql = "CREATE TRIGGER \(quotedIdentifier(name)) BEFORE DELETE ON \(quotedIdentifier(parent.name)) FOR EACH ROW BEGIN \(body); END"
        return (name, sql)
    }

    private func restrictMessage(_ key: ForeignKey) -> String {
        "cannot delete this row of \(parent.name): rows of \(key.child) refer to it (\(key.child).\(key.columns.joined(separator: ", ")) ON DELETE RESTRICT); delete those rows or point them elsewhere first"
    }

    /// The foreign keys, among `tables`, whose delete rule a trigger on `parent` enforces, with
    /// their referenced columns named (a `REFERENCES parent` without columns names its primary
    /// key). A key whose columns do not pair up with the parent's is SQLite's error to report
    /// and is left out.
    static func enforced(referencing parent: TableSchema, amongKeysOf tables: [String: [ForeignKey]]) -> [ForeignKey] {
        tables.keys.sorted().flatMap { tables[$0]! }.compactMap { key -> ForeignKey? in
            guard key.parent.lowercased() == parent.name.lowercased(),
                  [.cascade, .setNull, .restrict].contains(key.onDelete) else { return nil }
            let named = key.referencing(parent.primaryKey)
            guard named.referenced.count == named.columns.count,
                  named.referenced.allSatisfy({ parent.columnNames.contains($0) }) else { return nil }
            return named
        }
    }
}
