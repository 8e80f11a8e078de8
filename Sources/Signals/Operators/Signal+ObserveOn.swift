extension Signal {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// ```swift
    /// let counts = MutableProperty(0)
    /// let subscription = counts.signal
    ///     .observe(on: QueueScheduler(label: "log"))
    ///     .subscribe(onValue: { print("count", $0) })
    /// ```
    /// Events are handed over through a queue, so a slow subscriber does not block the sender.
    /// With a serial scheduler (every ``QueueScheduler`` made with a label, or `.main`) the
    /// order is kept. With a ``MainScheduler``, each subscription gets a line of its own: an
    /// event sent on the main actor while none of the subscription's events waits is delivered
    /// before the sender continues, so a replayed value arrives during `subscribe`.
    /// - Parameter scheduler: Where the subscriber's callbacks run.
    @inlinable
    public func observe(on scheduler: any Scheduler) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let scheduler: any Scheduler = scheduler is MainScheduler ? MainScheduler() : scheduler
            let handoff = Locked<[Event<Value, Failure>]>([])
            // A separate subscription (own serialization) upstream, so that downstream
            // callbacks run on the scheduler and never on the sender's thread.
            return upstream.subscribe { event in
                handoff.withLock { $0.append(event) }
                scheduler.schedule {
                    let next = handoff.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                    if let next { downstream.receive(next) }
                }
            }
        }
    }

    /// Runs the subscription work (the generator of this signal) on `scheduler`.
    ///
    /// Use it to start expensive or blocking sources off the subscribing thread.
    /// - Parameter scheduler: Where the generator runs.
    public func subscribe(on scheduler: any Scheduler) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            let subscription = SerialDisposable()
            scheduler.schedule {
                guard !downstream.isDisposed else { return }
                subscription.inner = upstream.generator(downstream)
            }
            return subscription
        }
    }
}
