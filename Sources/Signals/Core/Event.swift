/// One thing a ``Signal`` delivers: a value, a failure, or completion.
///
/// A subscription receives events in the grammar `value* (failed | completed)?`: any number of
/// values, then at most one terminal event, after which nothing more arrives.
public enum Event<Value, Failure: Error> {
    /// A value.
    case value(Value)
    /// The signal failed with an error. Terminal.
    case failed(Failure)
    /// The signal finished normally. Terminal.
    case completed

    /// Whether this event ends the subscription (``failed(_:)`` or ``completed``).
    @inlinable
    public var isTerminal: Bool {
        if case .value = self { return false }
        return true
    }

    /// The value carried by a ``value(_:)`` event, otherwise `nil`.
    @inlinable
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error carried by a ``failed(_:)`` event, otherwise `nil`.
    @inlinable
    public var error: Failure? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Transforms the value of a ``value(_:)`` event; terminal events pass through.
    @inlinable
    public func map<NewValue>(_ transform: (Value) throws(Failure) -> NewValue) -> Event<NewValue, Failure> {
        switch self {
        case .value(let value):
            do { return .value(try transform(value)) } catch { return .failed(error) }
        case .failed(let error): return .failed(error)
        case .completed: return .completed
        }
    }

    /// Transforms the error of a ``failed(_:)`` event; other events pass through.
    @inlinable
    public func mapError<NewFailure>(_ transform: (Failure) -> NewFailure) -> Event<Value, NewFailure> {
        switch self {
        case .value(let value): return .value(value)
        case .failed(let error): return .failed(transform(error))
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Value: Sendable {}
extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}

extension Event: CustomStringConvertible {
    /// A short description such as `value(3)`, `failed(timedOut)` or `completed`.
    public var description: String {
        switch self {
        case .value(let value): return "value(\(value))"
        case .failed(let error): return "failed(\(error))"
        case .completed: return "completed"
        }
    }
}
