extension Signal {
    /// Fails with `error()` if `interval` passes without an event: after subscribing, and again
    /// after each value.
    ///
    /// ```swift
    /// response.timeout(.seconds(5), on: scheduler, error: { .timedOut })
    /// ```
    /// - Parameters:
    ///   - interval: The longest wait allowed between two events.
    ///   - scheduler: The scheduler that measures the time.
    ///   - error: Makes the failure sent on timeout.
    public func timeout(
        _ interval: Duration,
        on scheduler: any Scheduler,
        error: @escaping @Sendable () -> Failure
    ) -> Signal<Value, Failure> {
        timeout(interval, on: scheduler, ending: { .failed(error()) })
    }

    /// Completes if `interval` passes without an event: after subscribing, and again after each
    /// value.
    ///
    /// - Parameters:
    ///   - interval: The longest wait allowed between two events.
    ///   - scheduler: The scheduler that measures the time.
    public func timeout(_ interval: Duration, on scheduler: any Scheduler) -> Signal<Value, Failure> {
        timeout(interval, on: scheduler, ending: { .completed })
    }

    private func timeout(
        _ interval: Duration,
        on scheduler: any Scheduler,
        ending: @escaping @Sendable () -> Event<Value, Failure>
    ) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let timer = SerialDisposable()
            let generation = StageState<UInt64>(0)
            @Sendable func restartTimer() {
                generation.value &+= 1
                let current = generation.value
                timer.inner = scheduler.schedule(after: interval) {
                    downstream.perform {
                        if generation.value == current { downstream.forward(ending()) }
                    }
                }
            }
            downstream.perform(restartTimer)
            let main = upstream.attach(to: downstream) { event in
                if event.isTerminal { timer.dispose() } else { restartTimer() }
                downstream.forward(event)
            }
            return CompositeDisposable([main.disposable, timer])
        }
    }
}
