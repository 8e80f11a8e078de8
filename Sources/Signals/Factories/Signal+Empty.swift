extension Signal {
    /// A signal that completes at once without a value.
    public static var empty: Signal<Value, Failure> {
        Signal { subscriber in
            subscriber.complete()
            return NoResource.shared
        }
    }

    /// A signal that never sends anything and never ends.
    public static var never: Signal<Value, Failure> {
        Signal { _ in NoResource.shared }
    }

    /// A signal that fails at once with `error`.
    public static func fail(_ error: Failure) -> Signal<Value, Failure> {
        Signal { subscriber in
            subscriber.fail(error)
            return NoResource.shared
        }
    }

    /// A signal that calls `makeSignal` for each subscription and follows what it returns.
    ///
    /// Use it to postpone work, such as reading the current state, to subscription time.
    /// - Parameter makeSignal: Builds the signal to follow; runs once per subscription.
    public static func deferred(_ makeSignal: @escaping @Sendable () -> Signal<Value, Failure>) -> Signal<Value, Failure> {
        Signal { subscriber in makeSignal().generator(subscriber) }
    }
}
