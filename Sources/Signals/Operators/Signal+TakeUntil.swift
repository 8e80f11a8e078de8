extension Signal {
    /// Sends values until `trigger` sends its first value, then completes.
    ///
    /// The trigger's own completion or failure does not end this signal.
    /// ```swift
    /// ticks.take(until: viewDidDisappear)
    /// ```
    /// - Parameter trigger: The signal whose first value ends this one.
    public func take<TriggerValue, TriggerFailure>(
        until trigger: Signal<TriggerValue, TriggerFailure>
    ) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let triggerSubscription = trigger.attach(to: downstream) { event in
                if case .value = event { downstream.forward(.completed) }
            }
            guard !downstream.isDisposed else { return triggerSubscription.disposable }
            let main = upstream.attach(to: downstream) { event in downstream.forward(event) }
            return CompositeDisposable([triggerSubscription.disposable, main.disposable])
        }
    }
}
