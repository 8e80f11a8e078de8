/// The runtime state of one model object: the lock that guards its stored values, the store
/// and row it belongs to, and the signals of its properties.
public final class ModelState: @unchecked Sendable {
    // @unchecked: `link` and `signals` (and the object's generated `_$…` storage) are read and
    // written only while holding `lock`.

    /// Where the object stands.
    enum Link {
        case unmanaged
        case managed(Store, rowID: Int64)
        case deleted(Store)
    }

    /// One property's signal: a typed broadcaster, and how to feed it a stored value.
    private struct ColumnSignal {
        let broadcaster: AnyObject
        let send: (SQLiteValue) -> Void
        let complete: () -> Void
    }

    private let lock = RecursiveLock()
    private var storedLink: Link = .unmanaged
    private var signals: [Int: ColumnSignal] = [:]

    /// Creates the state of an unmanaged object.
    public init() {}

    /// Runs `body` holding the object's lock; generated accessors read and write the stored
    /// values inside it.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    var link: Link {
        get { lock.withLock { storedLink } }
        set { lock.withLock { storedLink = newValue } }
    }

    var rowID: Int64? {
        if case .managed(_, let rowID) = link { return rowID }
        return nil
    }

    /// The signal of column `index` as `Value`, replaying the current value. The value is read
    /// under the lock that guards storage, so no change can slip between the read and the
    /// subscription. Values are decoded once per change, whatever the number of subscribers.
    func signal<Value>(column index: Int, as type: Value.Type, current: () -> SQLiteValue) -> Signal<Value, Never> {
        let broadcaster = lock.withLock { () -> Broadcaster<Value, Never> in
            if let existing = signals[index]?.broadcaster as? Broadcaster<Value, Never> { return existing }
            let created = Broadcaster<Value, Never>(replayLimit: 1, initial: ModelRuntime.decode(current(), as: Value.self))
            signals[index] = ColumnSignal(
                broadcaster: created,
                send: { value in
                    if let decoded = ModelRuntime.decode(value, as: Value.self) { created.send(.value(decoded)) }
                },
                complete: { created.send(.completed) }
            )
            if case .deleted = storedLink { created.send(.completed) }
            return created
        }
        return Signal { subscriber in broadcaster.subscribe(subscriber) }
    }

    /// Sends a committed value to the column's subscribers.
    func emit(column index: Int, value: SQLiteValue) {
        lock.withLock { signals[index] }?.send(value)
    }

    /// Completes every signal (row deleted or store closed).
    func completeAll() {
        let all = lock.withLock { Array(signals.values) }
        all.forEach { $0.complete() }
    }
}
