/// What a live aggregate sends after a commit that changed it: the totals of the groups it
/// changed, so that a subscriber's value is updated at the cost of those and the aggregate's own
/// totals are never copied.
struct AggregateChange: Sendable {
    /// The aggregate's version after this change (see ``AggregateState/version``).
    let version: Int
    /// The new totals of each group the commit changed (`nil`: the group has no rows now); `nil`
    /// when any group may have changed: the subscriber reads every group's totals again.
    let groups: [SQLiteValue: AggregateTotals?]?
}
