extension Signal {
    /// Drops a value when it equals the previous one by `isDuplicate` (GYSignal's `different`).
    ///
    /// - Parameter isDuplicate: Returns `true` when the second value repeats the first.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value, Failure> {
        stage { downstream in
            let previous = StageState<Value?>(nil)
            return { event in
                if case .value(let value) = event {
                    if let last = previous.value, isDuplicate(last, value) { return }
                    previous.value = value
                }
                downstream.forward(event)
            }
        }
    }
}

extension Signal where Value: Equatable & Sendable {
    /// Drops a value when it equals the previous one.
    ///
    /// ```swift
    /// status.removeDuplicates()   // a, a, b, a → a, b, a
    /// ```
    public func removeDuplicates() -> Signal<Value, Failure> {
        removeDuplicates(by: ==)
    }
}
