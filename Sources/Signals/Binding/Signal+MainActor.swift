extension Signal where Value: Sendable {
    /// Starts a subscription whose callbacks run on the main actor.
    ///
    /// Called on the main actor, a replaying source (a property, a `CurrentValueSubject`, a model
    /// property's signal) delivers its current value **before this call returns**, so a view's
    /// first frame is never empty. Later events arrive on the main actor in the order they were
    /// sent: at once when sent on the main actor while nothing else is waiting, otherwise through
    /// the main queue (see ``MainScheduler``).
    ///
    /// ```swift
    /// @MainActor final class StatusView {
    ///     private(set) var shown = ""
    ///     private let bag = DisposeBag()
    ///
    ///     init(status: MutableProperty<String>) {
    ///         status.signal
    ///             .subscribeOnMain { [weak self] status in self?.show(status) }
    ///             .disposed(by: bag)
    ///     }
    ///
    ///     func show(_ status: String) { shown = status }
    /// }
    /// ```
    /// - Parameters:
    ///   - onValue: Called on the main actor for each value.
    ///   - onFailure: Called on the main actor once if the signal fails.
    ///   - onCompleted: Called on the main actor once if the signal completes.
    /// - Returns: A disposable that ends the subscription; after `dispose()` returns on the main
    ///   actor, no callback runs.
    @MainActor @discardableResult @inlinable
    public func subscribeOnMain(
        onValue: @escaping @MainActor (Value) -> Void = { _ in },
        onFailure: @escaping @MainActor (Failure) -> Void = { _ in },
        onCompleted: @escaping @MainActor () -> Void = {}
    ) -> any Disposable {
        let delivery = MainActorDelivery(MainActorCallbacks(onValue: onValue, onFailure: onFailure, onCompleted: onCompleted))
        delivery.upstream.inner = subscribe { event in delivery.receive(event) }
        return delivery
    }

    /// Sets `target[keyPath: keyPath]` to every value, on the main actor.
    ///
    /// The target is held weakly: the binding ends at the first value that finds it released,
    /// and never keeps it alive. As with ``subscribeOnMain(onValue:onFailure:onCompleted:)``, a
    /// replaying source's current value is set before this call returns.
    ///
    /// ```swift
    /// @MainActor final class BadgeView {
    ///     var text = ""
    ///     private let bag = DisposeBag()
    ///
    ///     init(count: MutableProperty<Int>) {
    ///         count.signal.map { "× \($0)" }
    ///             .bind(to: self, \.text)
    ///             .disposed(by: bag)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - target: The object to update, usually a view or view model on the main actor.
    ///   - keyPath: The property to set.
    /// - Returns: A disposable that ends the binding earlier.
    @MainActor @discardableResult @inlinable
    public func bind<Target: AnyObject>(
        to target: Target,
        _ keyPath: ReferenceWritableKeyPath<Target, Value>
    ) -> any Disposable where Failure == Never {
        let binding = SerialDisposable()
        binding.inner = subscribeOnMain(onValue: { [weak target] value in
            guard let target else {
                binding.dispose()
                return
            }
            target[keyPath: keyPath] = value
        })
        return binding
    }
}

/// The main-actor callbacks of one subscription; the subscription's handler calls them on the
/// main actor only.
@MainActor @usableFromInline
final class MainActorCallbacks<Value, Failure: Error> {
    @usableFromInline let onValue: @MainActor (Value) -> Void
    @usableFromInline let onFailure: @MainActor (Failure) -> Void
    @usableFromInline let onCompleted: @MainActor () -> Void

    @inlinable
    init(
        onValue: @escaping @MainActor (Value) -> Void,
        onFailure: @escaping @MainActor (Failure) -> Void,
        onCompleted: @escaping @MainActor () -> Void
    ) {
        self.onValue = onValue
        self.onFailure = onFailure
        self.onCompleted = onCompleted
    }

    @inlinable
    func receive(_ event: Event<Value, Failure>) {
        switch event {
        case .value(let value): onValue(value)
        case .failed(let error): onFailure(error)
        case .completed: onCompleted()
        }
    }
}
