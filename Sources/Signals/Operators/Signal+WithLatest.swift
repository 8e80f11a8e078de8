extension Signal {
    /// Pairs each value with the latest value of `other`; values sent before `other` has sent
    /// anything are dropped.
    ///
    /// Ends when this signal ends; `other`'s completion does not end it, its failure does.
    /// ```swift
    /// saveTaps.withLatest(from: draft.signal).map { _, draft in draft }
    /// ```
    /// - Parameter other: The signal sampled for its latest value.
    public func withLatest<Other>(from other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        let upstream = self
        return Signal<(Value, Other), Failure> { downstream in
            let latest = StageState<Other?>(nil)
            let sampled = other.attach(to: downstream) { event in
                switch event {
                case .value(let value): latest.value = value
                case .completed: break
                case .failed(let error): downstream.forward(.failed(error))
                }
            }
            let main = upstream.attach(to: downstream) { event in
                switch event {
                case .value(let value):
                    if let other = latest.value { downstream.forward(.value((value, other))) }
                default:
                    downstream.forwardTerminal(of: event)
                }
            }
            return CompositeDisposable([sampled.disposable, main.disposable])
        }
    }
}
