extension Signal {
    /// Maps each value to a signal and follows only the latest one (switch).
    ///
    /// A new value disposes the previous inner signal. Completes when this signal and the
    /// current inner signal have completed; any failure ends everything.
    /// ```swift
    /// searchText.flatMapLatest { text in search(text) }
    /// ```
    /// - Parameter transform: Returns the inner signal for a value.
    public func flatMapLatest<NewValue>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        let upstream = self
        return Signal<NewValue, Failure> { downstream in
            let current = SerialDisposable()
            let state = StageState<(inner: Subscriber<NewValue, Failure>?, outerDone: Bool)>((nil, false))
            let outer = upstream.attach(to: downstream) { event in
                switch event {
                case .value(let value):
                    state.value.inner?.stop()
                    let inner = transform(value).attach(to: downstream) { innerEvent in
                        guard case .completed = innerEvent else { return downstream.forward(innerEvent) }
                        state.value.inner = nil
                        if state.value.outerDone { downstream.forward(.completed) }
                    }
                    state.value.inner = inner.subscriber
                    current.inner = inner.disposable
                case .failed(let error): downstream.forward(.failed(error))
                case .completed:
                    state.value.outerDone = true
                    if state.value.inner == nil { downstream.forward(.completed) }
                }
            }
            return CompositeDisposable([outer.disposable, current])
        }
    }
}
