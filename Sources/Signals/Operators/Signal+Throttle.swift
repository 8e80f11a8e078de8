extension Signal {
    /// Sends at most one value per `interval`.
    ///
    /// The first value is sent at once and opens a window of `interval`; values arriving during
    /// the window are held (the latest if `latest` is `true`, else the first) and the held value
    /// is sent when the window closes, opening the next one. On completion a held value is sent
    /// first.
    /// ```swift
    /// scrollOffset.throttle(for: .milliseconds(100), on: MainScheduler.shared, latest: true)
    /// ```
    /// - Parameters:
    ///   - interval: The minimum time between two values sent.
    ///   - scheduler: The scheduler that measures the time.
    ///   - latest: Whether to keep the latest (`true`) or the first (`false`) value of a window.
    public func throttle(for interval: Duration, on scheduler: any Scheduler, latest: Bool) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let timer = SerialDisposable()
            let state = StageState<(held: Value?, windowOpen: Bool)>((nil, false))
            @Sendable func openWindow() {
                state.value.windowOpen = true
                timer.inner = scheduler.schedule(after: interval) {
                    downstream.perform {
                        guard let held = state.value.held else { return state.value.windowOpen = false }
                        state.value.held = nil
                        downstream.forward(.value(held))
                        openWindow()
                    }
                }
            }
            let main = upstream.attach(to: downstream) { event in
                switch event {
                case .value where !state.value.windowOpen:
                    downstream.forward(event)
                    openWindow()
                case .value(let value):
                    if latest || state.value.held == nil { state.value.held = value }
                case .completed:
                    timer.dispose()
                    if let held = state.value.held { downstream.forward(.value(held)) }
                    downstream.forward(event)
                case .failed:
                    timer.dispose()
                    downstream.forward(event)
                }
            }
            return CompositeDisposable([main.disposable, timer])
        }
    }
}
