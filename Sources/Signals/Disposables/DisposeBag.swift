/// A bag of disposables that are all disposed when the bag is released.
///
/// ```swift
/// let bag = DisposeBag()
/// subject.subscribe(onValue: { print($0) }).disposed(by: bag)
/// ```
/// Inserting into a bag that was emptied with ``dispose()`` disposes the newcomer at once.
public final class DisposeBag: Sendable {
    private let composite = CompositeDisposable()

    /// Creates an empty bag.
    public init() {}

    deinit {
        composite.dispose()
    }

    /// Adds a disposable to the bag.
    public func insert(_ disposable: any Disposable) {
        composite.add(disposable)
    }

    /// Disposes everything in the bag now; anything inserted later is disposed at once.
    public func dispose() {
        composite.dispose()
    }
}
