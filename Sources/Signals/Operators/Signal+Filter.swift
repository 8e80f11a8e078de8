extension Signal {
    /// Passes on only the values that satisfy `isIncluded`.
    ///
    /// ```swift
    /// numbers.filter { $0.isMultiple(of: 2) }
    /// ```
    /// - Parameter isIncluded: Returns `true` for values to keep.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        stage { downstream in
            { event in
                if case .value(let value) = event, !isIncluded(value) { return }
                downstream.forward(event)
            }
        }
    }
}
