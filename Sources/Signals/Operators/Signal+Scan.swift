extension Signal {
    /// Accumulates values, sending every intermediate result.
    ///
    /// ```swift
    /// amounts.scan(0, +)   // 1, 2, 3 → 1, 3, 6
    /// ```
    /// - Parameters:
    ///   - initialResult: The starting accumulator, not sent itself.
    ///   - nextPartialResult: Combines the accumulator with the next value.
    public func scan<Result>(
        _ initialResult: Result,
        _ nextPartialResult: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> where Result: Sendable {
        stage { downstream in
            let accumulator = StageState(initialResult)
            return { event in
                guard case .value(let value) = event else { return downstream.forwardTerminal(of: event) }
                accumulator.value = nextPartialResult(accumulator.value, value)
                downstream.forward(.value(accumulator.value))
            }
        }
    }
}
