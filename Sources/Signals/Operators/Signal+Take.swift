extension Signal {
    /// Sends the first `count` values, then completes (and disposes the source).
    ///
    /// - Parameter count: How many values to take; zero completes at once.
    public func take(_ count: Int) -> Signal<Value, Failure> {
        guard count > 0 else { return .empty }
        return stage { downstream in
            let taken = StageState(0)
            return { event in
                downstream.forward(event)
                guard case .value = event else { return }
                taken.value += 1
                if taken.value == count { downstream.forward(.completed) }
            }
        }
    }

    /// Sends values while `predicate` holds; completes at the first value that fails it.
    ///
    /// - Parameter predicate: Returns `true` to keep going.
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Failure> {
        stage { downstream in
            { event in
                if case .value(let value) = event, !predicate(value) {
                    downstream.forward(.completed)
                } else {
                    downstream.forward(event)
                }
            }
        }
    }
}
