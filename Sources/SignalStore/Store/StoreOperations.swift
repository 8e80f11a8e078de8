/// The common calls of a store, written once for ``Store`` and for whatever stands for a store:
/// the test kit's `TestStore` conforms by exposing the store it made, so its `insert`, `find`,
/// `all`, `delete`, `transaction`, `execute`, `changes` and `lastChangeSeq` are these, not copies.
///
/// ```swift
/// func payInFull(_ order: Order, in store: some StoreOperations) throws {
///     try store.transaction {
///         order.status = "paid"
///     }
/// }
/// ```
public protocol StoreOperations: Sendable {
    /// The store the calls run on: the store itself, or the one a test fixture made.
    var store: Store { get }
}

extension Store: StoreOperations {
    /// The store itself, for code written against ``StoreOperations``.
    public var store: Store { self }
}

extension StoreOperations {
    /// Inserts `object`'s row. When this returns, `object` is *managed*: it is the live instance
    /// for its row, and setting a property writes through.
    /// - Throws: ``StoreError`` if the row is rejected (constraint, duplicate key…), the object
    ///   is already managed, or the model does not match its table.
    public func insert<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        try store.insertObject(object)
    }

    /// The object whose primary key is `id`: the live instance if there is one, else one read
    /// from the database (and live from then on); `nil` if there is no such row.
    ///
    /// Reads the last committed state on a read-only connection, without waiting for writers
    /// (inside ``transaction(_:)``, the transaction's own state).
    /// - Parameters:
    ///   - type: The model type.
    ///   - id: The primary key value.
    public func find<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(StoreError) -> Model? {
        try all(Model.self, where: ModelSQL.of(Model.self).primaryKeyCondition, arguments: [id.sqliteValue]).first
    }

    /// The objects matching `predicate`, live instances where they exist.
    ///
    /// Reads the last committed state on a read-only connection, without waiting for writers
    /// (inside ``transaction(_:)``, the transaction's own state). For several reads that must
    /// agree, use ``Store/read(_:)``.
    ///
    /// ```swift
    /// let open = try store.all(Order.self, where: "status = ?", arguments: [.text("open")], orderBy: "id")
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - predicate: An SQL `WHERE` fragment, or `nil` for every row.
    ///   - arguments: Values bound to the fragment's `?` parameters (never spliced into SQL).
    ///   - orderBy: An SQL `ORDER BY` fragment, or `nil` for rowid order.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil
    ) throws(StoreError) -> [Model] {
        do {
            return try store.query(Model.self, where: predicate, arguments: arguments, orderBy: orderBy)
        } catch {
            throw StoreError(error)
        }
    }

    /// Deletes `object`'s row. Its signals complete once the deletion commits; writing to it
    /// afterwards reports ``StoreError/rowDeleted(_:)``.
    public func delete<Model: PersistentModel>(_ object: Model) throws(StoreError) {
        try store.deleteObject(object)
    }

    /// Runs `body` in one transaction: `BEGIN IMMEDIATE … COMMIT`, or a savepoint when nested.
    ///
    /// Inside, property sets, inserts and deletes join the transaction, and reads made by
    /// `body` see them: property reads, ``find(_:id:)``, ``all(_:where:arguments:orderBy:)``.
    /// No other thread sees any of it before the commit: they read the last committed values,
    /// without waiting. After the outermost commit each changed property emits once, with its
    /// final value, in the order first changed. If `body` throws, or a property set inside it
    /// failed, everything is rolled back, nothing emits, nobody else ever saw the uncommitted
    /// values, and the error is rethrown.
    /// ```swift
    /// try store.transaction {
    ///     order.purchaseNum = 2
    ///     order.status = "paid"
    /// }
    /// ```
    /// Writes from other threads wait until the transaction ends; their reads do not.
    @discardableResult
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try store.runTransaction(body)
    }

    /// Runs SQL that changes the database, in one `BEGIN IMMEDIATE` transaction, and publishes
    /// the resulting journal entries on the change feed before returning.
    ///
    /// A table or column that the SQL creates is captured from then on, in the same transaction
    /// (rows it already holds are journaled as inserts); prefer migrations for schema changes,
    /// so that feed consumers can replay them.
    ///
    /// With `arguments`, `sql` is one statement whose `?` parameters are bound in order (values
    /// are never spliced into the SQL). Without, it may be several statements.
    ///
    /// A statement is kept prepared, so running the same SQL again skips SQLite's parse: with
    /// `arguments`, among the store's statements; without, among the last few single statements
    /// run without (a script of several is parsed each time). SQL that spells out values that
    /// change (`… WHERE id = 42`) is a new statement each time: pass them as `arguments`.
    /// - Returns: The number of rows changed by the last statement.
    /// - Throws: ``StoreError``; on error the transaction is rolled back and nothing is
    ///   published.
    @discardableResult
    public func execute(_ sql: String, arguments: [SQLiteValue] = []) throws(StoreError) -> Int {
        try store.executeSQL(sql, arguments: arguments)
    }

    /// The change feed: every journal entry after `since` (none when `nil`), then every new one
    /// as it commits, in `seq` order, without gap or duplicate.
    ///
    /// Entries made by this store are delivered before the write returns; entries committed by
    /// other connections within ``Store/pollInterval``. The signal completes when the store closes.
    /// ```swift
    /// let saved = checkpoint.lastSeq
    /// store.changes(since: saved).subscribe(onValue: { change in
    ///     apply(change)
    ///     checkpoint.lastSeq = change.seq
    /// })
    /// ```
    /// - Parameter since: Replay the entries after this seq first; `nil` for live entries only.
    /// - Returns: A signal that fails with ``StoreError/changeFeedGap(since:prunedThrough:)``
    ///   if entries after `since` were pruned, or ``StoreError/closed``.
    public func changes(since: Int64? = nil) -> Signal<Change, StoreError> {
        store.changeFeed(since: since)
    }

    /// The highest seq ever written to the journal (by any connection); 0 if none. Pruning does
    /// not lower it.
    public var lastChangeSeq: Int64 {
        get throws(StoreError) {
            try store.readJournal { connection in try Journal.highestSeq(connection) }
        }
    }
}
