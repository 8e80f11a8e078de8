extension Signal {
    /// Ignores this signal's values, waits for it to complete, then continues with `next`.
    ///
    /// A failure of this signal is passed on and `next` is never subscribed.
    /// ```swift
    /// save().then(reload())
    /// ```
    /// - Parameter next: The signal to subscribe to after completion.
    public func then<NewValue>(_ next: Signal<NewValue, Failure>) -> Signal<NewValue, Failure> {
        let upstream = self
        return Signal<NewValue, Failure> { downstream in
            let current = SerialDisposable()
            current.inner = upstream.attach(to: downstream) { event in
                switch event {
                case .value: break
                case .failed(let error): downstream.forward(.failed(error))
                case .completed:
                    current.inner = next.attach(to: downstream) { downstream.forward($0) }.disposable
                }
            }.disposable
            return current
        }
    }
}
