/// A resource or subscription that can be released.
///
/// `dispose()` is idempotent and thread-safe: the first call releases, later calls do nothing.
/// Conforming types are classes, so a disposable can be shared and compared by identity.
public protocol Disposable: AnyObject, Sendable {
    /// Releases the resource. Safe to call more than once and from any thread.
    func dispose()

    /// Whether ``dispose()`` has been called (or the resource ended by itself).
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Adds this disposable to `bag`, so it is disposed when the bag is.
    ///
    /// ```swift
    /// subject.subscribe(onValue: { print($0) }).disposed(by: bag)
    /// ```
    /// - Parameter bag: The bag that owns the subscription from now on.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
