/// What a ``LiveResults`` sends on its ``LiveResults/changes`` signal: the whole result once,
/// then, after each commit that changes it, the new result with what changed as indices.
///
/// ```swift
/// func follow(_ open: LiveResults<Order>) -> any Disposable {
///     open.changes.subscribe(onValue: { change in
///         switch change {
///         case .initial(let orders):
///             print("showing", orders.count)
///         case .update(let orders, let deletions, let insertions, let modifications):
///             print(orders.count, deletions, insertions, modifications)
///         }
///     })
/// }
/// ```
///
/// Indices follow the convention of a table view's batch update (Realm's, too): `deletions`
/// are positions in the previous result, `insertions` and `modifications` positions in the new
/// one. Apply deletions (highest first), then insertions (lowest first) to the previous array
/// and you have the new one. A row whose values changed and that kept its place among the
/// others is a modification; a row that moved is a deletion and an insertion.
public enum ResultsChange<Model: PersistentModel>: Sendable {
    /// The result when the subscription started.
    case initial([Model])
    /// The result after a commit, and how it differs from the one sent before.
    case update([Model], deletions: [Int], insertions: [Int], modifications: [Int])

    /// The objects of the result this change leaves.
    public var objects: [Model] {
        switch self {
        case .initial(let objects), .update(let objects, _, _, _): objects
        }
    }
}
