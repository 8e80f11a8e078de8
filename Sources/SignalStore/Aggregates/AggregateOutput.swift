/// How a live aggregate's totals become the value its signal sends: made whole from every
/// group when a subscriber starts, then updated for the groups each commit changed.
struct AggregateOutput<Output: Equatable & Sendable>: Sendable {
    /// What an update did to the output.
    enum Update {
        case unchanged, changed
        /// The new value does not fit the output's type (a sum past `Int64`).
        case doesNotFit
    }

    /// One subscription's output: the last value, the aggregate's version it holds, and whether
    /// the last change made a value the output's type cannot hold.
    struct Step: Sendable {
        var current: Output?
        var version = 0
        var doesNotFit = false
    }

    /// The output from every group's totals; `nil` when it does not fit the output's type.
    let make: @Sendable ([SQLiteValue: AggregateTotals]) -> Output?
    /// Updates an output with the new totals of the groups a commit changed; leaves it as it
    /// was when it returns `.doesNotFit`.
    let update: @Sendable (inout Output, [SQLiteValue: AggregateTotals?]) -> Update

    /// Moves `step` past `change` and returns the value to send (`nil` when the output stayed
    /// equal) and whether to report that the value no longer fits the output's type: once, when
    /// it stops fitting, not at every commit until it fits again. A subscriber with no value yet,
    /// or a change of every group, reads `snapshot` (every group's totals and their version); a
    /// change the snapshot already holds is skipped. The output is updated in place: a value per
    /// group that the subscriber did not keep is not copied.
    func advance(_ step: inout Step, _ change: AggregateChange, snapshot: () -> (groups: [SQLiteValue: AggregateTotals], version: Int)) -> (send: Output?, reportNotFitting: Bool) {
        let fitted = !step.doesNotFit
        let send = next(&step, change, snapshot: snapshot)
        return (send, fitted && step.doesNotFit)
    }

    /// ``advance(_:_:snapshot:)``'s step: the value to send, with `step.doesNotFit` set.
    private func next(_ step: inout Step, _ change: AggregateChange, snapshot: () -> (groups: [SQLiteValue: AggregateTotals], version: Int)) -> Output? {
        if let groups = change.groups, var output = step.current.take() {
            defer { step.current = output }
            guard change.version > step.version else { return nil }
            step.version = change.version
            let updated = update(&output, groups)
            step.doesNotFit = updated == .doesNotFit
            return updated == .changed ? output : nil
        }
        let whole = snapshot()
        step.version = whole.version
        guard let output = make(whole.groups) else { step.doesNotFit = true; return nil }
        step.doesNotFit = false
        guard output != step.current else { return nil }
        step.current = output
        return output
    }

    /// One total, from the totals of all rows (the group `.null`; `nil` for no rows).
    static func total(_ value: @escaping @Sendable (AggregateTotals?) -> Output?) -> AggregateOutput {
        AggregateOutput(
            make: { value($0[.null]) },
            update: { output, groups in
                guard let totals = groups[.null] else { return .unchanged }
                guard let new = value(totals) else { return .doesNotFit }
                guard new != output else { return .unchanged }
                output = new
                return .changed
            }
        )
    }

    /// A value per group; groups whose key or value the types cannot hold are left out.
    static func grouped<Group: SQLiteValueConvertible & Hashable & Sendable, Value: Equatable & Sendable>(
        _ value: @escaping @Sendable (AggregateTotals) -> Value?
    ) -> AggregateOutput where Output == [Group: Value] {
        AggregateOutput(
            make: { totals in
                var output: [Group: Value] = [:]
                for (group, totals) in totals {
                    if let key = Group(sqliteValue: group), let value = value(totals) { output[key] = value }
                }
                return output
            },
            update: { output, groups in
                var differs = false
                for (group, totals) in groups {
                    guard let key = Group(sqliteValue: group) else { continue }
                    let new = totals.flatMap(value)
                    // One lookup a group: the old value comes back from the write.
                    let old = if let new { output.updateValue(new, forKey: key) } else { output.removeValue(forKey: key) }
                    if old != new { differs = true }
                }
                return differs ? .changed : .unchanged
            }
        )
    }
}
