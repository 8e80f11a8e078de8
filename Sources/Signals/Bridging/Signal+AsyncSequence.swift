extension Signal {
    /// Creates a signal that iterates `sequence` in a task for each subscription.
    ///
    /// Each element is sent as a value; the end of the sequence completes the signal and an
    /// error it throws fails it. Disposing the subscription cancels the task.
    /// ```swift
    /// let lines = Signal(fileHandle.bytes.lines)
    /// ```
    /// - Parameter sequence: The asynchronous sequence to follow.
    public init<Source: AsyncSequence & Sendable>(_ sequence: Source)
    where Source.Element == Value, Source.Failure == Failure {
        self.init { subscriber in
            let task = Task {
                var iterator = sequence.makeAsyncIterator()
                do throws(Failure) {
                    while let value = try await iterator.next(isolation: nil) {
                        subscriber.send(value)
                    }
                    subscriber.complete()
                } catch {
                    subscriber.fail(error)
                }
            }
            return AnyDisposable { task.cancel() }
        }
    }
}
