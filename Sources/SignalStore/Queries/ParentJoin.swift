/// A `@Parent` link as a query reads it: the child's key column, and the parent's table and
/// the column the key names (the parent model's primary key). A filter or ordering across a
/// parent (``ModelFilter/parent(_:_:)``, ``ModelOrdering/parent(_:_:)``) renders its SQL from
/// it, and a live result reads from it which table's commits concern it and how to find the
/// children of a changed parent.
struct ParentJoin: Sendable, Hashable {
    /// The child's table and the column holding the key.
    let childTable: String
    let keyColumn: String
    /// The parent's table and the column the key names.
    let parentTable: String
    let parentColumn: String

    /// The link of `keyPath`, a `@Parent` property of `Child` whose model is `Parent`. A key
    /// path that is not one is a programming error that stops the program with a message.
    static func of<Child: PersistentModel, Parent: PersistentModel>(_ keyPath: KeyPath<Child, Parent?>) -> ParentJoin {
        guard let relationship = Child._$isolation.relationship(of: keyPath), relationship.kind == .parent,
              let keyIndex = Child._$columnProperties.firstIndex(of: relationship.keyProperty)
        else { preconditionFailure("\(keyPath) is not a @Parent relationship of \(Child.self); a filter or an ordering across a parent names one") }
        guard let parentKey = Parent._$columns.first(where: \.isPrimaryKey) else {
            preconditionFailure("\(Parent.self) has no primary key for \(keyPath) to name")
        }
        return ParentJoin(childTable: Child._$table, keyColumn: Child._$columns[keyIndex].name, parentTable: Parent._$table, parentColumn: parentKey.name)
    }

    /// `key IN (SELECT parent key FROM parent WHERE condition)`: the children whose parent
    /// matches `condition` (on the parent's columns).
    func membership(_ condition: SQL) -> SQL {
        "\(identifier: keyColumn) IN (SELECT \(identifier: parentColumn) FROM \(identifier: parentTable) WHERE \(condition))"
    }

    /// The parent's `column` for each child row, as an expression of the child's query (NULL
    /// when there is no parent). The parent's table is aliased, so the child's table is named
    /// unambiguously even when a table is its own parent.
    func value(of column: String) -> SQL {
        "(SELECT \(identifier: "_parent").\(identifier: column) FROM \(identifier: parentTable) AS \(identifier: "_parent") WHERE \(identifier: "_parent").\(identifier: parentColumn) = \(identifier: childTable).\(identifier: keyColumn))"
    }

    /// The child rows (their rowids) whose key names one of the parent rows `parentRowIDs` now,
    /// or one of `formerKeys` (keys of parents deleted or re-keyed).
    func childrenSQL(formerKeys: Bool) -> String {
        let current = SQL("\(identifier: keyColumn) IN (SELECT \(identifier: parentColumn) FROM \(identifier: parentTable) WHERE rowid ").text + KeyList.inBoundList + ")"
        let former = formerKeys ? SQL(" OR \(identifier: keyColumn) ").text + KeyList.inBoundList : ""
        return SQL("SELECT rowid FROM \(identifier: childTable) WHERE ").text + current + former
    }
}
