/// A disposable that runs a closure once, on the first ``dispose()``.
///
/// ```swift
/// let timer = AnyDisposable { source.cancel() }
/// ```
public final class AnyDisposable: Disposable {
    private let action: Locked<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` when first disposed.
    /// - Parameter action: The clean-up to run, at most once, on the disposing thread.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// Creates a disposable with nothing to clean up; it only records that it was disposed.
    public init() {
        self.action = Locked({})
    }

    /// Runs the action if this is the first call; later calls do nothing.
    public func dispose() {
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Whether the action has run.
    public var isDisposed: Bool {
        action.withLock { $0 == nil }
    }
}
