/// What a live object tells its observers after a commit was applied to it: made by
/// ``ModelRegistry`` as it applies the commit, delivered later by the store with no lock held,
/// in commit order.
enum ModelNotification: Sendable {
    /// Column `column` of `object` now holds `value`: Observation's `withMutation`, then the
    /// property's signal.
    case changed(any PersistentModel, column: Int, value: SQLiteValue)
    /// The object's row is gone (deleted, or its rowid taken by another row): its signals
    /// complete.
    case ended(any PersistentModel)

    /// Tells the observers. Call with no lock held.
    func deliver() {
        switch self {
        case .changed(let object, let column, let value):
            let state = object._$model
            object.willChange(column: column, state: state)
            state.emit(column: column, value: value)
        case .ended(let object):
            object._$model.completeAll()
        }
    }
}

/// The notifications of one commit, in order. One is kept as it is: a model's set makes one,
/// and an array of it would be allocated and freed on every set.
enum ModelNotifications: Sendable {
    case one(ModelNotification)
    case many([ModelNotification])

    /// No notification.
    static let none = ModelNotifications.many([])

    /// Hands each notification to `body`, in order, and leaves none: moved out, not copied,
    /// since copying one retains its object, whose weak references (the identity map's) make
    /// that the slow kind of retain.
    mutating func moveEach(_ body: (consuming ModelNotification) -> Void) {
        let taken = self
        self = .none
        switch consume taken {
        case .one(let notification): body(notification)
        case .many(let notifications): for notification in notifications { body(notification) }
        }
    }
}
