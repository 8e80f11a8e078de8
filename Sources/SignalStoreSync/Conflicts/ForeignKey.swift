#if SIGNALSTORE_SYNC
import SignalStore

/// A `REFERENCES` clause between two synced tables.
struct ForeignKey: Equatable {
    /// The referencing table and its columns.
    let child: String
    let from: [String]
    /// The referenced table and its columns (its primary key when the clause names none).
    let parent: String
    let to: [String]
    /// The `ON DELETE` action, as SQLite names it: `NO ACTION`, `RESTRICT`, `CASCADE`,
    /// `SET NULL`, `SET DEFAULT`.
    let onDelete: String

    static func all(_ tables: SyncedTables, _ connection: Connection) throws -> [ForeignKey] {
        var result: [ForeignKey] = []
        for child in tables.names {
            var clauses: [Int64: (parent: String, from: [String], to: [String], onDelete: String)] = [:]
            for row in try connection.statement("SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq").rows([.text(child)]) {
                guard case .integer(let id) = row[0], case .text(let parent) = row[1], case .text(let from) = row[2] else { continue }
                var clause = clauses[id] ?? (parent, [], [], row[4].textValue ?? "NO ACTION")
                clause.from.append(from)
                if let to = row[3].textValue { clause.to.append(to) }
                clauses[id] = clause
            }
            for clause in clauses.values.sorted(by: { $0.parent < $1.parent }) {
                guard let parent = tables.byName[clause.parent] else { continue }
                result.append(ForeignKey(child: child, from: clause.from, parent: parent.name, to: clause.to.isEmpty ? parent.primaryKey : clause.to, onDelete: clause.onDelete))
            }
        }
        return result
    }
}
#endif
