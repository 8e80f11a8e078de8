extension Signal {
    /// Runs `action` once when the subscription ends, however it ends: completion, failure or
    /// disposal (GYSignal's `finally`).
    ///
    /// On a terminal event, `action` runs after the event was delivered.
    /// - Parameter action: The clean-up to run exactly once per subscription.
    public func onTermination(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let finalizer = AnyDisposable(action)
            return CompositeDisposable([upstream.generator(downstream), finalizer])
        }
    }
}
