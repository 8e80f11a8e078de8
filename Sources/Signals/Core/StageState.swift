/// The mutable state of one operator stage in one subscription.
///
/// Operators keep their state (a counter, the last value, a buffer) in one of these, created per
/// subscription.
@usableFromInline
final class StageState<State>: @unchecked Sendable {
    // @unchecked: read and written only inside the subscription's serialized section (see
    // `SubscriptionCore`), which admits one thread at a time and orders their accesses with its lock.
    // Touched only inside the serialized section: no dynamic exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline var value: State

    @inlinable
    init(_ value: State) {
        self.value = value
    }
}

extension Subscriber {
    /// Forwards the terminal event of another stage's event type; ignores values.
    /// Call only inside the serialized section.
    @inlinable
    func forwardTerminal<OtherValue>(of event: Event<OtherValue, Failure>) {
        switch event {
        case .value: break
        case .failed(let error): forward(.failed(error))
        case .completed: forward(.completed)
        }
    }
}
