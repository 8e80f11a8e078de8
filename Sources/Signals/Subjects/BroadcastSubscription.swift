/// The disposable returned for a subject subscription; detaches the subscriber.
@usableFromInline
final class BroadcastSubscription<Value, Failure: Error>: Disposable {
    @usableFromInline weak let broadcaster: Broadcaster<Value, Failure>?
    @usableFromInline let id: UInt64

    @inlinable
    init(_ broadcaster: Broadcaster<Value, Failure>, id: UInt64) {
        self.broadcaster = broadcaster
        self.id = id
    }

    @inlinable
    func dispose() {
        broadcaster?.remove(id: id)
    }

    @inlinable
    var isDisposed: Bool {
        broadcaster?.contains(id: id) != true
    }
}
