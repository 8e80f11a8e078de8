extension Signal {
    /// Replaces a failure with the signal `handler` returns for it.
    ///
    /// ```swift
    /// load().catch { _ in .just(cached) }
    /// ```
    /// - Parameter handler: Returns the signal to continue with after a failure.
    public func `catch`<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        let upstream = self
        return Signal<Value, NewFailure> { downstream in
            let current = SerialDisposable()
            current.inner = upstream.attach(to: downstream) { event in
                switch event {
                case .value(let value): downstream.forward(.value(value))
                case .completed: downstream.forward(.completed)
                case .failed(let error):
                    current.inner = handler(error).attach(to: downstream) { downstream.forward($0) }.disposable
                }
            }.disposable
            return current
        }
    }
}
