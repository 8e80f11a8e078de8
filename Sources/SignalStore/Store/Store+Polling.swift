/// Noticing commits by other connections: the poller's check of `PRAGMA data_version`.
extension Store {
    /// The poller's check: publishes what other connections committed since the last check.
    /// A failure leaves the check to the next poll, which retries it; it is reported on
    /// ``errors`` once (not at every poll while it lasts). A busy database is not a failure:
    /// another writer holds the lock, and the next poll simply tries again. Returns what it
    /// found, for the poller (``ChangePoller``).
    @discardableResult
    func pollForExternalCommits() -> ChangePoller.Check {
        let (outcome, ownCommits) = database.withLock { state -> (Result<Bool, StoreError>?, Bool) in
            guard let connection = state.connection else { return (nil, false) }
            let ownCommits = connection.totalChanges != state.changesAtLastPoll
            state.changesAtLastPoll = connection.totalChanges
            guard !connection.isInTransaction else { return (nil, ownCommits) }
            do {
                let version = try Self.dataVersion(connection)
                guard version != state.dataVersion else { return (nil, ownCommits) }
                try captureSchemaChanges(state, connection)
                try commitPublisher.publishNew(connection)
                state.dataVersion = version
                state.pollFailure = nil
                return (.success(true), ownCommits)
            } catch SQLiteError.busy {
                return (nil, ownCommits)
            } catch {
                let failure = StoreError(error)
                guard state.pollFailure != failure else { return (nil, ownCommits) }
                state.pollFailure = failure
                return (.failure(failure), ownCommits)
            }
        }
        switch outcome {
        case .success: publisher.drain()
        case .failure(let error): report(error)
        case nil: break
        }
        if case .success? = outcome { return .othersCommits }
        return ownCommits ? .ownCommits : .nothing
    }

    static func dataVersion(_ connection: Connection) throws -> Int64 {
        try connection.scalar("PRAGMA data_version")?.integerValue ?? 0
    }
}
