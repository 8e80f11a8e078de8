extension Signal where Value: Sendable {
    /// A signal that sends `value` and completes.
    ///
    /// ```swift
    /// let one: Signal<Int, Never> = .just(1)
    /// ```
    public static func just(_ value: Value) -> Signal<Value, Failure> {
        Signal { subscriber in
            subscriber.send(value)
            subscriber.complete()
            return NoResource.shared
        }
    }

    /// A signal that sends each element of `sequence` in order, then completes.
    ///
    /// Stops early if the subscription is disposed from a callback.
    /// - Parameter sequence: The values to send; iterated once per subscription.
    public static func from<S: Sequence & Sendable>(_ sequence: S) -> Signal<Value, Failure> where S.Element == Value {
        Signal { subscriber in
            for value in sequence {
                if subscriber.isDisposed { break }
                subscriber.send(value)
            }
            subscriber.complete()
            return NoResource.shared
        }
    }
}
