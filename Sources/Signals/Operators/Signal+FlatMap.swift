extension Signal {
    /// Maps each value to a signal and merges the values of all of them (GYSignal's
    /// `flattenMap`).
    ///
    /// Completes when this signal and every inner signal have completed; the first failure, of
    /// this signal or an inner one, ends everything.
    /// ```swift
    /// orderIDs.flatMap { id in store.load(id) }
    /// ```
    /// - Parameter transform: Returns the inner signal for a value.
    public func flatMap<NewValue>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        let upstream = self
        return Signal<NewValue, Failure> { downstream in
            let inners = CompositeDisposable()
            let state = StageState((active: 1, nextID: 0))   // `active` counts the outer signal too
            @Sendable func innerEnded() {
                state.value.active -= 1
                if state.value.active == 0 { downstream.forward(.completed) }
            }
            let outer = upstream.attach(to: downstream) { event in
                switch event {
                case .value(let value):
                    state.value.active += 1
                    let inner = SerialDisposable()
                    inners.add(inner)
                    inner.inner = transform(value).attach(to: downstream) { innerEvent in
                        guard case .completed = innerEvent else { return downstream.forward(innerEvent) }
                        inners.remove(inner)
                        inner.dispose()
                        innerEnded()
                    }.disposable
                case .failed(let error): downstream.forward(.failed(error))
                case .completed: innerEnded()
                }
            }
            return CompositeDisposable([outer.disposable, inners])
        }
    }
}
