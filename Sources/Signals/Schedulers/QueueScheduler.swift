import Dispatch

/// A scheduler that runs actions on a Dispatch queue.
///
/// ```swift
/// let sizes = MutableProperty(64)
/// let thumbnails = QueueScheduler(label: "thumbnails")
/// let subscription = sizes.signal
///     .observe(on: thumbnails)
///     .subscribe(onValue: { size in print("rendering at", size) })
/// ```
/// To update views on the main actor, use ``Signal/subscribeOnMain(onValue:onFailure:onCompleted:)``,
/// ``Signal/bind(to:_:)`` or ``MainScheduler``: their closures are main-actor isolated, and a
/// value sent on the main actor arrives without a queue hop.
public final class QueueScheduler: Scheduler {
    /// The queue actions run on.
    public let queue: DispatchQueue
    private let origin = ContinuousClock.now

    /// A scheduler for the main queue.
    public static let main = QueueScheduler(queue: .main)

    /// Creates a scheduler on `queue`.
    /// - Parameter queue: The queue to run on; a serial queue keeps actions in order.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Creates a scheduler on a new serial queue.
    /// - Parameters:
    ///   - label: The queue's label, shown in debuggers.
    ///   - qos: The quality of service of the queue.
    public convenience init(label: String, qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// Time elapsed since this scheduler was created.
    public var now: Duration {
        ContinuousClock.now - origin
    }

    /// Runs `action` asynchronously on the queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }

    /// Runs `action` on the queue once `delay` has passed, unless cancelled first.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancellation = AnyDisposable()
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            if !cancellation.isDisposed { action() }
        }
        return cancellation
    }
}
