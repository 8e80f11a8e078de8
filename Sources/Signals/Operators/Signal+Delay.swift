extension Signal {
    /// Shifts values and completion later by `interval`; a failure is passed on at once and
    /// drops what is still delayed.
    ///
    /// - Parameters:
    ///   - interval: How long to hold each event.
    ///   - scheduler: The scheduler that measures the time and runs the delayed delivery.
    public func delay(for interval: Duration, on scheduler: any Scheduler) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let timers = CompositeDisposable()
            let queue = StageState<[Event<Value, Failure>]>([])
            let main = upstream.attach(to: downstream) { event in
                if case .failed = event {
                    queue.value.removeAll()
                    timers.dispose()
                    return downstream.forward(event)
                }
                queue.value.append(event)
                timers.add(scheduler.schedule(after: interval) {
                    downstream.perform {
                        guard !queue.value.isEmpty else { return }
                        downstream.forward(queue.value.removeFirst())
                    }
                })
            }
            return CompositeDisposable([main.disposable, timers])
        }
    }
}
