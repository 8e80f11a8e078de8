/// A disposable that holds one inner disposable at a time, disposing the previous one whenever
/// a new one is set.
///
/// Used for "switch to the latest" work such as ``Signal/flatMapLatest(_:)``.
public final class SerialDisposable: Disposable {
    private struct State {
        var inner: (any Disposable)?
        var isDisposed = false
    }

    private let state = Locked(State())

    /// Creates an empty serial disposable.
    public init() {}

    /// The current inner disposable. Setting it disposes the previous one; setting it after this
    /// serial disposable was disposed disposes the new one at once.
    public var inner: (any Disposable)? {
        get { state.withLock { $0.inner } }
        set {
            let toDispose = state.withLock { state -> (any Disposable)? in
                if state.isDisposed { return newValue }
                defer { state.inner = newValue }
                return state.inner
            }
            toDispose?.dispose()
        }
    }

    /// Disposes the current inner disposable and any set later.
    public func dispose() {
        let inner = state.withLock { state -> (any Disposable)? in
            state.isDisposed = true
            defer { state.inner = nil }
            return state.inner
        }
        inner?.dispose()
    }

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }
}
