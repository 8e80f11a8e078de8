extension Signal {
    /// Drops the first `count` values.
    ///
    /// - Parameter count: How many values to drop.
    public func skip(_ count: Int) -> Signal<Value, Failure> {
        guard count > 0 else { return self }
        return stage { downstream in
            let skipped = StageState(0)
            return { event in
                if case .value = event, skipped.value < count {
                    skipped.value += 1
                    return
                }
                downstream.forward(event)
            }
        }
    }

    /// Drops values while `predicate` holds, then passes on everything.
    ///
    /// - Parameter predicate: Returns `true` for leading values to drop.
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        stage { downstream in
            let isSkipping = StageState(true)
            return { event in
                if isSkipping.value, case .value(let value) = event {
                    if predicate(value) { return }
                    isSkipping.value = false
                }
                downstream.forward(event)
            }
        }
    }
}
