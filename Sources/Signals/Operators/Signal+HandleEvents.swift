extension Signal {
    /// Performs side effects for events as they pass, without changing them.
    ///
    /// ```swift
    /// request.handleEvents(onSubscribe: { print("loading") }, onCompleted: { print("loaded") })
    /// ```
    /// - Parameters:
    ///   - onSubscribe: Called when a subscription starts, before the source runs.
    ///   - onValue: Called with each value before it is passed on.
    ///   - onFailure: Called with the error before it is passed on.
    ///   - onCompleted: Called before completion is passed on.
    public func handleEvents(
        onSubscribe: (@Sendable () -> Void)? = nil,
        onValue: (@Sendable (Value) -> Void)? = nil,
        onFailure: (@Sendable (Failure) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil
    ) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            onSubscribe?()
            return upstream.attach(to: downstream) { event in
                switch event {
                case .value(let value): onValue?(value)
                case .failed(let error): onFailure?(error)
                case .completed: onCompleted?()
                }
                downstream.forward(event)
            }.disposable
        }
    }
}
