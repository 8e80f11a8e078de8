extension Store {
    /// ``StoreOperations/transaction(_:)``.
    func runTransaction<Result>(_ body: () throws -> Result) throws -> Result {
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
