/// A disposable that disposes its inner disposable when it is itself released.
///
/// Keep one as a stored property to tie a subscription to an object's lifetime:
/// ```swift
/// final class View { var subscription: ScopedDisposable? }
/// view.subscription = ScopedDisposable(model.signal.subscribe(onValue: render))
/// ```
public final class ScopedDisposable: Disposable {
    /// The disposable released when this one is disposed or deinitialized.
    public let inner: any Disposable

    /// Wraps `inner`, disposing it on ``dispose()`` or at the latest on deinit.
    public init(_ inner: any Disposable) {
        self.inner = inner
    }

    deinit {
        inner.dispose()
    }

    /// Disposes the inner disposable now rather than on deinit.
    public func dispose() {
        inner.dispose()
    }

    /// Whether the inner disposable is disposed.
    public var isDisposed: Bool {
        inner.isDisposed
    }
}
