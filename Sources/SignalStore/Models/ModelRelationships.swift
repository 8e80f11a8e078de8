/// The accessors of `@Parent` and `@Children` properties, which `@Model` generates calls to.
///
/// A relationship reads through the object's `ModelHost` (the store) and keeps what it
/// found in the object's state: the parent for the key it was found by, or the live result of
/// the children for this object's key. A parent is used again only while it is still the live,
/// managed object whose key column holds that key, so reading `order.customer` again costs a
/// lock and a comparison, and a re-pointed, deleted or re-keyed parent is looked up afresh.
///
/// What a relationship found is held strongly, as Observation needs: a view that showed
/// `order.customer?.name` must hear the name change, so the customer must live as long as the
/// order does. An order and its customer whose `orders` result holds that order keep each other
/// alive until one of their rows is deleted or the store closes, which releases every link.
public enum ModelRelationships {
    /// `order.customer`: the live parent whose key `child`'s key column holds, or nil (NULL,
    /// a key with no row, an object that is not in a store and was not given a parent).
    public static func parent<Child: PersistentModel, Key: SQLiteValueConvertible, Parent: PersistentModel>(
        of child: Child, through key: KeyPath<Child, Key>, property: String
    ) -> Parent? {
        // Read through the property: Observation tracks the key, and a transaction sees its own.
        parent(of: child, key: child[keyPath: key].sqliteValue, property: property)?.object
    }

    /// The live parent whose key is `value`, and its key column's index in its model.
    static func parent<Child: PersistentModel, Parent: PersistentModel>(
        of child: Child, key value: SQLiteValue, property: String
    ) -> (object: Parent, column: Int)? {
        guard value != .null else { return nil }
        let state = child._$model
        if let link = state.relatedLink(property) as? ParentLink, let parent = link.parent(for: value) as? Parent {
            return (parent, link.column)
        }
        guard let host = state.host, let resolved = host.relationship(property, of: Child.self),
              let parent = host.object(Parent.self, column: resolved.parentColumn, value: value)
        else { return nil }
        state.setRelatedLink(property, ParentLink(parent, key: value, column: resolved.parentColumnIndex))
        return (parent, resolved.parentColumnIndex)
    }

    /// `order.customer = customer`: writes the parent's key into `child`'s key column (through
    /// the store when `child` is managed, like any property set), or NULL for nil.
    ///
    /// The parent must be in a store: its key is what is written. A parent that is not, or a nil
    /// for a key that cannot be NULL, changes nothing and is reported on the store's `errors`
    /// (a programming error that stops the program when neither object is in a store).
    public static func setParent<Child: PersistentModel, Key: SQLiteValueConvertible, Parent: PersistentModel>(
        of child: Child, through key: ReferenceWritableKeyPath<Child, Key>, property: String, to parent: Parent?
    ) {
        let name = "\(Child.self).\(property)"
        guard let parent else {
            guard let null = Key(sqliteValue: .null) else {
                return fail("cannot set \(name) to nil: its key \(Child.self).\(Child._$relationship(named: property)?.keyProperty ?? "?") is not optional; make the key optional, or delete the object", child: child, parent: nil)
            }
            child[keyPath: key] = null
            return
        }
        guard case .managed(let parentHost, _) = parent._$model.link else {
            return fail("cannot set \(name) to a \(Parent.self) that is not in a store: insert it (or find it) first, so it has a key", child: child, parent: parent)
        }
        guard let resolved = (child._$model.host ?? parentHost).relationship(property, of: Child.self) else { return }
        let value = parent._$value(column: resolved.parentColumnIndex)
        guard let typed = Key(sqliteValue: value) else {
            return fail("cannot set \(name): the \(Parent.self)'s key \(value) does not fit \(Key.self); make the key property's type match the parent's key column", child: child, parent: parent)
        }
        child[keyPath: key] = typed
        child._$model.setRelatedLink(property, ParentLink(parent, key: value, column: resolved.parentColumnIndex))
    }

    /// `customer.orders`: the live result of the children whose key column holds `parent`'s
    /// key, made on first use and kept (made again if `parent`'s key changes). Empty, and never
    /// changing, for an object that is not in a store.
    public static func children<Parent: PersistentModel, Child: PersistentModel, Key: SQLiteValueConvertible>(
        of parent: Parent, through key: KeyPath<Child, Key>, orderBy: [ModelOrdering<Child>], property: String
    ) -> LiveResults<Child> {
        let state = parent._$model
        guard case .managed(let host, _) = state.link, let resolved = host.relationship(property, of: Parent.self) else {
            return LiveResults(detached: ())
        }
        let value = parent._$value(column: resolved.parentColumnIndex)
        let link = state.relatedLink(property)
        if let link = link as? ChildrenLink<Child>, link.key == value { return link.results }
        let results = host.results(Child.self, column: resolved.childColumn, value: value, orderBy: orderBy, deferred: link is ChildrenToSeed)
        state.setRelatedLink(property, ChildrenLink(results: results, key: value))
        return results
    }

    /// Reports a misuse on the store of either object, or stops when neither is in one.
    private static func fail(_ message: String, child: some PersistentModel, parent: (any PersistentModel)?) {
        guard let host = child._$model.host ?? parent?._$model.host else { preconditionFailure(message) }
        host.report(.notManaged(message))
    }
}

/// The parent a relationship found, for the key it found it by.
final class ParentLink: Sendable {
    private let object: any PersistentModel
    let key: SQLiteValue
    /// The parent's key column, in its model's columns.
    let column: Int

    init(_ object: any PersistentModel, key: SQLiteValue, column: Int) {
        self.object = object
        self.key = key
        self.column = column
    }

    /// The parent, if it is still the live object whose key is `key`.
    func parent(for key: SQLiteValue) -> (any PersistentModel)? {
        guard key == self.key, object._$model.rowID != nil, object._$value(column: column) == key else { return nil }
        return object
    }
}

/// Marks a children relationship whose result a read of many parents is about to seed
/// (``Store/all(_:where:orderBy:including:_:)``): the next read of it makes a deferred result.
final class ChildrenToSeed: Sendable {}

/// The live result of a children relationship, for the parent key it filters on.
final class ChildrenLink<Child: PersistentModel>: Sendable {
    let results: LiveResults<Child>
    let key: SQLiteValue

    init(results: LiveResults<Child>, key: SQLiteValue) {
        self.results = results
        self.key = key
    }
}
