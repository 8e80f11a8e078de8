extension Signal {
    /// Pairs the n-th value of `a` with the n-th value of `b`.
    ///
    /// Values wait in a buffer until their partner arrives. Completes once a side has completed
    /// and none of its values wait for a partner; any failure ends everything.
    /// - Parameters:
    ///   - a: The first signal.
    ///   - b: The second signal.
    public static func zip<A, B>(_ a: Signal<A, Failure>, _ b: Signal<B, Failure>) -> Signal<Value, Failure>
    where Value == (A, B) {
        Signal { downstream in
            let state = StageState(ZipState<A, B>())
            @Sendable func pairIfReady() {
                while !state.value.left.isEmpty, !state.value.right.isEmpty {
                    downstream.forward(.value((state.value.left.removeFirst(), state.value.right.removeFirst())))
                }
                if state.value.isFinished { downstream.forward(.completed) }
            }
            let left = a.attach(to: downstream) { event in
                switch event {
                case .value(let value): state.value.left.append(value)
                case .completed: state.value.leftDone = true
                case .failed(let error): return downstream.forward(.failed(error))
                }
                pairIfReady()
            }
            let right = b.attach(to: downstream) { event in
                switch event {
                case .value(let value): state.value.right.append(value)
                case .completed: state.value.rightDone = true
                case .failed(let error): return downstream.forward(.failed(error))
                }
                pairIfReady()
            }
            return CompositeDisposable([left.disposable, right.disposable])
        }
    }

    /// Combines the n-th values of three signals; see ``zip(_:_:)``.
    public static func zip<A, B, C>(
        _ a: Signal<A, Failure>, _ b: Signal<B, Failure>, _ c: Signal<C, Failure>
    ) -> Signal<Value, Failure> where Value == (A, B, C) {
        Signal<((A, B), C), Failure>.zip(Signal<(A, B), Failure>.zip(a, b), c).map { ($0.0.0, $0.0.1, $0.1) }
    }
}

/// The buffers of a zip.
struct ZipState<A, B> {
    var left: [A] = []
    var right: [B] = []
    var leftDone = false
    var rightDone = false

    /// A side is done and has nothing left to pair.
    var isFinished: Bool {
        (leftDone && left.isEmpty) || (rightDone && right.isEmpty)
    }
}
