/// One subscriber of a ``Broadcaster``. Not generic on purpose: the subscriber is stored as
/// `AnyObject` (always a `Subscriber<Value, Failure>` of the owning broadcaster) so array
/// operations on the entries need no runtime generic-metadata lookup.
@usableFromInline
struct BroadcastEntry {
    @usableFromInline let id: UInt64
    /// The sequence number of the first event this subscriber may receive.
    @usableFromInline let firstSeq: UInt64
    /// `nil` once removed: a tombstone keeps the ids sorted for the binary search.
    @usableFromInline var subscriber: AnyObject?

    /// Where ``subscriber`` lies in an entry, after the two 8-byte fields, for reading it
    /// without a retain (see `Broadcaster.deliver`). A constant, so that reading it costs
    /// nothing; debug builds check it against the layout when a broadcaster is made.
    @inlinable static var subscriberOffset: Int { 16 }

    @inlinable
    init(id: UInt64, firstSeq: UInt64, subscriber: AnyObject?) {
        self.id = id
        self.firstSeq = firstSeq
        self.subscriber = subscriber
    }
}
