extension Signal {
    /// Sends the values of all `signals` as they arrive.
    ///
    /// Completes when all have completed; the first failure ends everything.
    /// ```swift
    /// Signal.merge(localEdits, remoteEdits)
    /// ```
    /// - Parameter signals: The signals to merge.
    public static func merge(_ signals: Signal<Value, Failure>...) -> Signal<Value, Failure> {
        merge(signals)
    }

    /// Sends the values of all `signals` as they arrive; see ``merge(_:)-swift.type.method``.
    /// - Parameter signals: The signals to merge; an empty array completes at once.
    public static func merge(_ signals: [Signal<Value, Failure>]) -> Signal<Value, Failure> {
        guard !signals.isEmpty else { return .empty }
        return Signal { downstream in
            let running = StageState(signals.count)
            let subscriptions = CompositeDisposable()
            for signal in signals {
                if downstream.isDisposed { break }
                subscriptions.add(signal.attach(to: downstream) { event in
                    guard case .completed = event else { return downstream.forward(event) }
                    running.value -= 1
                    if running.value == 0 { downstream.forward(.completed) }
                }.disposable)
            }
            return subscriptions
        }
    }
}
