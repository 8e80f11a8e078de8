extension Signal {
    /// Transforms the error of a failure.
    ///
    /// - Parameter transform: Applied to the error, if the signal fails.
    public func mapError<NewFailure>(_ transform: @escaping @Sendable (Failure) -> NewFailure) -> Signal<Value, NewFailure> {
        stage { downstream in
            { event in downstream.forward(event.mapError(transform)) }
        }
    }
}
