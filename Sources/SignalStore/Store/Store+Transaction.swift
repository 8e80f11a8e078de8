extension Store {
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
        let (result, isOutermost) = try database.withLock { state -> (Result, Bool) in
            guard let connection = state.connection else { throw StoreError.closed }
            let isOutermost = !connection.isInTransaction
            let enclosing = state.transaction
            let transaction = enclosing ?? ModelTransaction()
            if enclosing == nil { state.transaction = transaction } else { transaction.beginLevel() }
            var written = CommitPublisher.NewChanges.unread
            do {
                let result = try connection.transaction { () throws -> Result in
                    let result = try body()
                    if let failure = transaction.failure { throw failure }
                    // Read inside, before COMMIT: the entries are visible to the transaction.
                    if isOutermost { written = try commitPublisher.read(connection) }
                    return result
                }
                if enclosing == nil {
                    state.transaction = nil
                    if isOutermost { commitPublisher.publish(written) }
                    transaction.clearUncommittedValues()
                } else {
                    transaction.commitLevel()
                }
                return (result, isOutermost)
            } catch {
                if isOutermost { state.forgetSchemaVersion() }
                if enclosing == nil { state.transaction = nil } else { transaction.failure = nil }
                transaction.rollbackLevel(registry)
                throw error
            }
        }
        if isOutermost { publisher.drain() }
        return result
    }
}
