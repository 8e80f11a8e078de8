extension Signal {
    /// Transforms each value.
    ///
    /// ```swift
    /// prices.map { "\($0) €" }
    /// ```
    /// - Parameter transform: Applied to every value.
    /// - Returns: A signal of the transformed values, ending when this one ends.
    @inlinable
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue, Failure> {
        stage { downstream in
            { event in downstream.forward(event.map(transform)) }
        }
    }
}
