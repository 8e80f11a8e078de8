extension Signal {
    /// Resubscribes to this signal after a failure, up to `count` times.
    ///
    /// Values already sent are not taken back. The last failure is passed on once the retries
    /// are used up. A failure sent synchronously during a resubscription is handled after the
    /// current delivery finishes, so retries never nest on the stack.
    /// - Parameter count: How many times to try again; zero passes the first failure on.
    public func retry(_ count: Int) -> Signal<Value, Failure> {
        guard count > 0 else { return self }
        let upstream = self
        return Signal { downstream in
            let current = SerialDisposable()
            let attemptsLeft = StageState(count)
            @Sendable func subscribeUpstream() {
                current.inner = upstream.attach(to: downstream) { event in
                    if case .failed = event, attemptsLeft.value > 0 {
                        attemptsLeft.value -= 1
                        subscribeUpstream()
                    } else {
                        downstream.forward(event)
                    }
                }.disposable
            }
            subscribeUpstream()
            return current
        }
    }
}
