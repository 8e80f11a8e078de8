extension Signal where Value: Sendable {
    /// Sends `values` first, then everything this signal sends (startWith).
    ///
    /// ```swift
    /// searchText.prepend("")
    /// ```
    /// - Parameter values: The values to send before subscribing to this signal.
    public func prepend(_ values: Value...) -> Signal<Value, Failure> {
        prepend(contentsOf: values)
    }

    /// Sends the elements of `values` first, then everything this signal sends.
    /// - Parameter values: The values to send before subscribing to this signal.
    public func prepend(contentsOf values: [Value]) -> Signal<Value, Failure> {
        let upstream = self
        return Signal { downstream in
            for value in values {
                if downstream.isDisposed { break }
                downstream.send(value)
            }
            return downstream.isDisposed ? NoResource.shared : upstream.generator(downstream)
        }
    }
}
