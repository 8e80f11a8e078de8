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
            let transaction = state.transaction ?? ModelTransaction()
            let isOutermost = state.transaction == nil
            let savepoint = "signalstore_model_\(transaction.depth)"
            if isOutermost {
                try connection.statement("BEGIN IMMEDIATE").run()
                state.transaction = transaction
            } else {
                try connection.statement("SAVEPOINT \(savepoint)").run()
                transaction.beginLevel()
            }
            do {
                let result = try body()
                if let failure = transaction.failure { throw failure }
                if isOutermost {
                    let written = try readNewChanges(connection)   // inside, before COMMIT
                    try connection.statement("COMMIT").run()
                    state.transaction = nil
                    publish(written)
                    transaction.clearUncommittedValues()
                } else {
                    try connection.statement("RELEASE \(savepoint)").run()
                    transaction.commitLevel()
                }
                return (result, isOutermost)
            } catch {
                if isOutermost {
                    if connection.isInTransaction { try? connection.statement("ROLLBACK").run() }
                    state.transaction = nil
                } else {
                    try? connection.statement("ROLLBACK TO \(savepoint)").run()
                    try? connection.statement("RELEASE \(savepoint)").run()
                    transaction.failure = nil
                }
                transaction.rollbackLevel(registry)
                throw error
            }
        }
        if isOutermost { publisher.drain() }
        return result
    }
}
