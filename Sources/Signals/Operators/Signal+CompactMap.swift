extension Signal {
    /// Transforms each value and drops those that become `nil`.
    ///
    /// ```swift
    /// inputs.compactMap { Int($0) }   // "1", "x", "3" → 1, 3
    /// ```
    /// - Parameter transform: Returns the new value, or `nil` to skip it.
    @inlinable
    public func compactMap<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue?) -> Signal<NewValue, Failure> {
        stage { downstream in
            { event in
                guard case .value(let value) = event else { return downstream.forwardTerminal(of: event) }
                if let newValue = transform(value) { downstream.forward(.value(newValue)) }
            }
        }
    }
}
