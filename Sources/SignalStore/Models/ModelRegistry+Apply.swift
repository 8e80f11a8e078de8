/// The one way a published batch reaches the live objects of the identity map: the commit
/// publisher (``CommitPublisher/publish(_:)``) hands each batch to ``apply(_:)`` on the locked
/// registry, which chooses how long to hold the lock.
extension Locked where State == ModelRegistry {
    /// Applies a batch to the live objects and returns their notifications, holding the
    /// registry's lock as briefly as it can, since readers filing objects wait for it:
    /// - a batch that completes and moves no object (the usual one: updates of ordinary columns
    ///   and inserts) is noted under the lock, its live objects looked up, and their values
    ///   stored after the lock is released;
    /// - one that may (a delete, a key change) is applied under the lock, as a large one is
    ///   first narrowed, outside the lock, to the entries of rows that have a live object.
    func apply(_ changes: [Change]) -> ModelNotifications {
        let rows = ChangedRows(changes)
        let isLarge = changes.count > 64
        // A large batch is checked for identity changes outside the lock, against a copy of the
        // key columns (its answer stands only if no type was filed meanwhile); a small one under
        // the lock, in one go.
        let checkedOutside = isLarge ? withLock { $0.keyColumns }.checking(changes) : nil
        let outcome = withLock { registry -> LiveApplication in
            registry.noteRead(rows)
            let keeps = checkedOutside.map { $0.keeps && $0.version == registry.keyColumns.version }
                ?? !registry.keyColumns.mayChangeIdentities(changes)
            if keeps {
                return .valuesOnly(registry.entriesSnapshot)
            }
            return isLarge && changes.count > registry.entryCount ? .narrowFirst : .applied(.many(registry.applyHoldingLock(changes)))
        }
        switch outcome {
        case .applied(let notifications):
            return notifications
        case .valuesOnly(let entries):
            return entries.isEmpty ? .none : ModelRegistry.applyValues(changes, to: entries)
        case .narrowFirst:
            var live = withLock { $0.liveRowIDs }
            let relevant = changes.filter { change in
                guard live.contains(change.rowID) else { return false }
                // A live row may move to a new rowid (its key changed): follow any integer it is
                // set to. Following too many only costs lookups.
                if change.operation == .update, case .integer(let moved)? = change.newValue { live.insert(moved) }
                return true
            }
            return relevant.isEmpty ? .none : .many(withLock { $0.applyHoldingLock(relevant) })
        }
    }

    /// How ``apply(_:)`` goes on after noting a batch under the registry's lock.
    private enum LiveApplication {
        /// Applied under the lock.
        case applied(ModelNotifications)
        /// No identity changes: store the values in the objects of this snapshot of the
        /// registry after the lock is released.
        case valuesOnly([ModelRegistry.RowKey: ModelRegistry.Entry])
        /// Large, with identity changes: narrow it to live rows outside the lock, then apply.
        case narrowFirst
    }
}

private extension KeyColumns {
    /// Whether `changes` keep every identity by these key columns, and which version said so.
    func checking(_ changes: [Change]) -> (keeps: Bool, version: Int) {
        (!mayChangeIdentities(changes), version)
    }
}
