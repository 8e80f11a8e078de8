extension Signal {
    /// Shares one subscription to this signal among all subscribers, replaying the latest
    /// `bufferSize` values to each newcomer (ReactiveSwift's `replayLazily`).
    ///
    /// The source is subscribed when the first subscriber arrives and disposed when the last one
    /// leaves; the next subscriber after that starts it afresh, with an empty buffer. Once the
    /// source has ended it is never restarted: every later subscriber receives the buffer and
    /// the terminal event.
    /// ```swift
    /// let user = loadUser().share(replay: 1)   // one request, however many views
    /// ```
    /// - Parameter bufferSize: How many of the latest values to replay; zero replays nothing.
    public func share(replay bufferSize: Int = 0) -> Signal<Value, Failure> {
        precondition(bufferSize >= 0, "share(replay:) needs a bufferSize of zero or more, got \(bufferSize)")
        let shared = SharedConnection(upstream: self, bufferSize: bufferSize)
        return Signal { downstream in shared.subscribe(downstream) }
    }
}

/// The connection behind ``Signal/share(replay:)``: one upstream subscription feeding a
/// broadcaster, reference-counted by its subscribers.
final class SharedConnection<Value, Failure: Error>: Sendable {
    private struct State {
        var broadcaster: Broadcaster<Value, Failure>?
        var connection: SerialDisposable?
        var subscribers = 0
    }

    private let upstream: Signal<Value, Failure>
    private let bufferSize: Int
    private let state = Locked(State())

    init(upstream: Signal<Value, Failure>, bufferSize: Int) {
        self.upstream = upstream
        self.bufferSize = bufferSize
    }

    func subscribe(_ downstream: Subscriber<Value, Failure>) -> any Disposable {
        let (broadcaster, newConnection) = state.withLock { state in
            state.subscribers += 1
            if let broadcaster = state.broadcaster { return (broadcaster, SerialDisposable?.none) }
            let broadcaster = Broadcaster<Value, Failure>(replayLimit: bufferSize)
            let connection = SerialDisposable()
            state.broadcaster = broadcaster
            state.connection = connection
            return (broadcaster, connection)
        }
        let subscription = broadcaster.subscribe(downstream)
        newConnection?.inner = upstream.subscribe { broadcaster.send($0) }
        return AnyDisposable { [self] in
            subscription.dispose()
            release()
        }
    }

    private func release() {
        let connection = state.withLock { state -> SerialDisposable? in
            state.subscribers -= 1
            guard state.subscribers == 0, state.broadcaster?.isTerminated == false else { return nil }
            defer {
                state.broadcaster = nil
                state.connection = nil
            }
            return state.connection
        }
        connection?.dispose()
    }
}
