/// How a live aggregate's totals become the value its signal sends: made whole from every
/// group when a subscriber starts, then updated for the groups each commit changed.
struct AggregateOutput<Output: Equatable & Sendable>: Sendable {
    /// What an update did to the output.
    enum Update {
        case unchanged, changed
        /// The new value does not fit the output's type (a sum past `Int64`).
        case doesNotFit
    }

    /// One subscription's output: the last value, the aggregate's version it holds, and what the
    /// last change makes it send.
    struct Step: Sendable {
        var current: Output?
        var version = 0
        /// The value to send for the last change; `nil` when it left the output equal.
        var send: Output?
        /// The last change made a value the output's type cannot hold.
        var doesNotFit = false
    }

    /// The output from every group's totals; `nil` when it does not fit the output's type.
    let make: @Sendable ([SQLiteValue: AggregateTotals]) -> Output?
    /// Updates an output with the new totals of the groups a commit changed.
    let update: @Sendable (inout Output, [SQLiteValue: AggregateTotals?]) -> Update

    /// The step after `change`, from the one before: a subscriber with no value yet, or a
    /// change of every group, reads `snapshot` (every group's totals and their version); a
    /// change the snapshot already holds is skipped.
    func next(_ step: Step, _ change: AggregateChange, snapshot: () -> (groups: [SQLiteValue: AggregateTotals], version: Int)) -> Step {
        var next = Step(current: step.current, version: step.version)
        if var output = step.current, let groups = change.groups {
            guard change.version > step.version else { return next }
            next.version = change.version
            switch update(&output, groups) {
            case .unchanged: break
            case .changed: next.current = output; next.send = output
            case .doesNotFit: next.doesNotFit = true
            }
            return next
        }
        let whole = snapshot()
        next.version = whole.version
        guard let output = make(whole.groups) else { next.doesNotFit = true; return next }
        if output != step.current { next.current = output; next.send = output }
        return next
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
                    if output[key] != new { output[key] = new; differs = true }
                }
                return differs ? .changed : .unchanged
            }
        )
    }
}
