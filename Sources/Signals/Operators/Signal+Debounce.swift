extension Signal {
    /// Sends a value only after `dueTime` has passed without another value.
    ///
    /// On completion a value still waiting is sent first; a failure drops it.
    /// ```swift
    /// searchText.debounce(for: .milliseconds(300), on: MainScheduler.shared)
    /// ```
    /// - Parameters:
    ///   - dueTime: The quiet period a value must survive.
    ///   - scheduler: The scheduler that measures the time.
    public func debounce(for dueTime: Duration, on scheduler: any Scheduler) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let timer = SerialDisposable()
            let state = StageState<(pending: Value?, generation: UInt64)>((nil, 0))
            let main = upstream.attach(to: downstream) { event in
                guard case .value(let value) = event else {
                    timer.dispose()
                    if case .completed = event, let pending = state.value.pending { downstream.forward(.value(pending)) }
                    state.value.pending = nil
                    return downstream.forward(event)
                }
                state.value.pending = value
                state.value.generation &+= 1
                let generation = state.value.generation
                timer.inner = scheduler.schedule(after: dueTime) {
                    downstream.perform {
                        guard state.value.generation == generation, let pending = state.value.pending else { return }
                        state.value.pending = nil
                        downstream.forward(.value(pending))
                    }
                }
            }
            return CompositeDisposable([main.disposable, timer])
        }
    }
}
