/// Noticing commits by other connections: the poller's check of `PRAGMA data_version`.
extension Store {
    /// The poller's check: publishes what other connections committed since the last check.
    /// A failure leaves the check to the next poll, which retries it; it is reported on
    /// ``errors`` once (not at every poll while it lasts). A busy database is not a failure:
    /// another writer holds the lock, and the next poll simply tries again. Returns whether it
    /// published another connection's commits.
    @discardableResult
    func pollForExternalCommits() -> Bool {
        let outcome = database.withLock { state -> Result<Bool, StoreError>? in
            guard let connection = state.connection, !connection.isInTransaction else { return nil }
            do {
                let version = try Self.dataVersion(connection)
                guard version != state.dataVersion else { return nil }
                try captureSchemaChanges(state, connection)
                try commitPublisher.publishNew(connection)
                state.dataVersion = version
                state.pollFailure = nil
                return .success(true)
            } catch SQLiteError.busy {
                return nil
            } catch {
                let failure = StoreError(error)
                guard state.pollFailure != failure else { return nil }
                state.pollFailure = failure
                return .failure(failure)
            }
        }
        switch outcome {
        case .success: publisher.drain()
        case .failure(let error): report(error)
        case nil: break
        }
        if case .success? = outcome { return true }
        return false
    }

    static func dataVersion(_ connection: Connection) throws -> Int64 {
        try connection.scalar("PRAGMA data_version")?.integerValue ?? 0
    }
}
