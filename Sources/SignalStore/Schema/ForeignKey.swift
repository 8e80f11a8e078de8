/// One `REFERENCES` clause of a table: its columns refer to a row of another table.
package struct ForeignKey: Sendable, Equatable {
    /// What SQLite does to referencing rows when the referenced row is deleted or its key
    /// changes, as `pragma_foreign_key_list` names it.
    package enum Action: String, Sendable {
        case noAction = "NO ACTION", restrict = "RESTRICT", setNull = "SET NULL", setDefault = "SET DEFAULT", cascade = "CASCADE"
    }

    /// The referencing table and its columns.
    package let child: String
    package let columns: [String]
    /// The referenced table and its columns as declared (empty: the parent's primary key).
    package let parent: String
    package let referenced: [String]
    package let onDelete: Action
    package let onUpdate: Action

    /// `FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL`.
    package var sql: String {
        var text = "FOREIGN KEY (\(columns.joined(separator: ", "))) REFERENCES \(parent)"
        if !referenced.isEmpty { text += " (\(referenced.joined(separator: ", ")))" }
        if onDelete != .noAction { text += " ON DELETE \(onDelete.rawValue)" }
        if onUpdate != .noAction { text += " ON UPDATE \(onUpdate.rawValue)" }
        return text
    }

    /// The same clause with the referenced columns named: `parentKey` when it named none.
    package func referencing(_ parentKey: [String]) -> ForeignKey {
        referenced.isEmpty ? ForeignKey(child: child, columns: columns, parent: parent, referenced: parentKey, onDelete: onDelete, onUpdate: onUpdate) : self
    }

    /// The foreign keys of `table`, in declaration order.
    package static func all(of table: String, _ connection: Connection) throws -> [ForeignKey] {
        let rows = try connection.statement("SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq")
            .rows([.text(table)])
        var keys: [ForeignKey] = []
        var lastID: Int64?
        for row in rows {
            guard let parent = row[1].textValue, let column = row[2].textValue else { continue }
            let referenced = row[3].textValue.map { [$0] } ?? []
            if row[0].integerValue == lastID, let last = keys.popLast() {
                keys.append(ForeignKey(child: table, columns: last.columns + [column], parent: parent, referenced: last.referenced + referenced, onDelete: last.onDelete, onUpdate: last.onUpdate))
            } else {
                keys.append(ForeignKey(
                    child: table, columns: [column], parent: parent, referenced: referenced,
                    onDelete: row[5].textValue.flatMap(Action.init(rawValue:)) ?? .noAction,
                    onUpdate: row[4].textValue.flatMap(Action.init(rawValue:)) ?? .noAction))
            }
            lastID = row[0].integerValue
        }
        return keys
    }
}
