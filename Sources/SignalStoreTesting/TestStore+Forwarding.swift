extension TestStore {
    /// `Store.insert(_:)` on the test's store.
    public func insert<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        try store.insert(object)
    }

    /// `Store.find(_:id:)` on the test's store.
    public func find<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(StoreError) -> Model? {
        try store.find(type, id: id)
    }

    /// `Store.all(_:where:arguments:orderBy:)` on the test's store.
    public func all<Model: PersistentModel>(
        _ type: Model.Type, where predicate: String? = nil, arguments: [SQLiteValue] = [], orderBy: String? = nil
    ) throws(StoreError) -> [Model] {
        try store.all(type, where: predicate, arguments: arguments, orderBy: orderBy)
    }

    /// `Store.delete(_:)` on the test's store.
    public func delete<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        try store.delete(object)
    }

    /// `Store.transaction(_:)` on the test's store.
    @discardableResult
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try store.transaction(body)
    }

    /// `Store.execute(_:arguments:)` on the test's store.
    @discardableResult
    public func execute(_ sql: String, arguments: [SQLiteValue] = []) throws(StoreError) -> Int {
        try store.execute(sql, arguments: arguments)
    }

    /// `Store.changes(since:)` on the test's store.
    public func changes(since seq: Int64? = nil) -> Signal<Change, StoreError> {
        store.changes(since: seq)
    }

    /// `Store.lastChangeSeq` of the test's store.
    public var lastChangeSeq: Int64 {
        get throws(StoreError) { try store.lastChangeSeq }
    }
}
