/// Anything that can be viewed as a ``Signal``: signals themselves and every subject.
///
/// Subjects conform so that they can be subscribed directly and passed wherever a signal is
/// expected (`Signal.merge(subjectA, subjectB)`).
public protocol SignalSource<Value, Failure>: Sendable {
    /// The type of values delivered.
    associatedtype Value
    /// The type of error that ends the stream; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// A ``Signal`` view of this source.
    var signal: Signal<Value, Failure> { get }
}

extension Signal: SignalSource {
    /// The signal itself.
    public var signal: Signal<Value, Failure> { self }
}

extension SignalSource {
    /// Subscribes to ``signal``; see ``Signal/subscribe(_:)``.
    @discardableResult
    public func subscribe(_ observer: @escaping @Sendable (Event<Value, Failure>) -> Void) -> any Disposable {
        signal.subscribe(observer)
    }

    /// Subscribes to ``signal``; see ``Signal/subscribe(onValue:onFailure:onCompleted:)``.
    @discardableResult
    public func subscribe(
        onValue: @escaping @Sendable (Value) -> Void = { _ in },
        onFailure: @escaping @Sendable (Failure) -> Void = { _ in },
        onCompleted: @escaping @Sendable () -> Void = {}
    ) -> any Disposable {
        signal.subscribe(onValue: onValue, onFailure: onFailure, onCompleted: onCompleted)
    }

    /// Subscribes to ``signal`` holding `object` weakly; see ``Signal/subscribe(with:_:)``.
    @discardableResult
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        _ action: @escaping @Sendable (Object, Value) -> Void
    ) -> any Disposable {
        signal.subscribe(with: object, action)
    }
}
