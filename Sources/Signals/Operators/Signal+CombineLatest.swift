extension Signal {
    /// Sends the latest value of each signal whenever either sends, once both have sent one.
    ///
    /// Completes when both have completed; any failure ends everything.
    /// ```swift
    /// Signal.combineLatest(username.signal, password.signal).map { !$0.isEmpty && !$1.isEmpty }
    /// ```
    /// - Parameters:
    ///   - a: The first signal.
    ///   - b: The second signal.
    public static func combineLatest<A, B>(_ a: Signal<A, Failure>, _ b: Signal<B, Failure>) -> Signal<Value, Failure>
    where Value == (A, B) {
        Signal { downstream in
            let state = StageState<(a: A?, b: B?, running: Int)>((nil, nil, 2))
            @Sendable func handle(_ event: Event<Void, Failure>) {
                switch event {
                case .value:
                    if let a = state.value.a, let b = state.value.b { downstream.forward(.value((a, b))) }
                case .completed:
                    state.value.running -= 1
                    if state.value.running == 0 { downstream.forward(.completed) }
                case .failed(let error):
                    downstream.forward(.failed(error))
                }
            }
            let left = a.attach(to: downstream) { event in
                if case .value(let value) = event { state.value.a = value }
                handle(event.map { _ in })
            }
            let right = b.attach(to: downstream) { event in
                if case .value(let value) = event { state.value.b = value }
                handle(event.map { _ in })
            }
            return CompositeDisposable([left.disposable, right.disposable])
        }
    }

    /// Combines the latest values of three signals; see ``combineLatest(_:_:)``.
    public static func combineLatest<A, B, C>(
        _ a: Signal<A, Failure>, _ b: Signal<B, Failure>, _ c: Signal<C, Failure>
    ) -> Signal<Value, Failure> where Value == (A, B, C) {
        Signal<((A, B), C), Failure>.combineLatest(Signal<(A, B), Failure>.combineLatest(a, b), c)
            .map { ($0.0.0, $0.0.1, $0.1) }
    }
}
