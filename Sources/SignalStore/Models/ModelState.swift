#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The runtime state of one model object: the lock that guards its stored values, the store
/// and row it belongs to, the values an open transaction set, and the signals of its
/// properties.
///
/// The stored values are always committed ones. A property set inside `store.transaction` is
/// kept here as *uncommitted* until the transaction ends, visible only to the thread running
/// the transaction; the journal entries of the commit then update the stored values.
public final class ModelState: @unchecked Sendable {
    // @unchecked: `storedLink`, `signals`, `valueSignals`, `related`, `uncommitted` and
    // `uncommittedOwner` (and the object's generated `_$…` storage) are read and written only
    // while holding `lock`.
    // @exclusivity(unchecked) on the signal lists, which every delivery reads: no access to
    // them overlaps another (making a subject reads neither), so the runtime's check of each
    // access (some 40 instructions) is left out.

    /// Where the object stands.
    enum Link {
        case unmanaged
        case managed(any ModelHost, rowID: Int64)
        case deleted(any ModelHost)
    }

    /// One property's signal: a typed broadcaster, and how to feed it a stored value. A class,
    /// so that a delivery takes it out of the lock with one reference count.
    private final class ColumnSignal {
        let broadcaster: AnyObject
        let send: (SQLiteValue) -> Void
        let complete: () -> Void

        init(broadcaster: AnyObject, send: @escaping (SQLiteValue) -> Void, complete: @escaping () -> Void) {
            self.broadcaster = broadcaster
            self.send = send
            self.complete = complete
        }
    }

    @usableFromInline let lock = RecursiveLock()
    private var storedLink: Link = .unmanaged
    /// Each column's signal, by column index, once made: a list, since a commit's delivery looks
    /// a column up for each change, and an index costs less than hashing it.
    @exclusivity(unchecked) private var signals: [ColumnSignal?] = []
    /// Each column's untyped signal (``PersistentModel/_valueSignal(column:)``), by column index.
    @exclusivity(unchecked) private var valueSignals: [ColumnSignal?] = []
    /// What each relationship resolved last, by property name (``ModelRelationships``): a
    /// list, since a model has few relationships and a dictionary per object costs more.
    private var related: [(property: String, link: AnyObject)] = []
    /// Values set by the open transaction, by column.
    private var uncommitted: [Int: SQLiteValue] = [:]
    /// The thread running that transaction.
    private var uncommittedOwner: pthread_t?
    /// Whether a generated getter has read a property of the object (``visible(column:committed:)``).
    /// Observation tracks only what it saw read through a getter, so until then nothing can be
    /// waiting for a change, and a change's delivery leaves Observation out (for a main-actor
    /// model, a hop to the main queue). Set under `lock`, which orders it before a commit's
    /// application under the same lock, and read without it by that commit's delivery.
    private let wasReadByGetter = Atomic<Bool>(false)

    /// Creates the state of an unmanaged object.
    public init() {}

    /// Runs `body` holding the object's lock; generated accessors read and write the stored
    /// values inside it. Inlined into them, so each is compiled for its own result type.
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    /// The value of column `index` as the calling thread sees it: the value its own open
    /// transaction set, if any, else `committed` (the stored value). Generated getters call it
    /// inside ``withLock(_:)``.
    public func visible<Value>(column index: Int, committed: Value) -> Value {
        if !wasReadByGetter.load(ordering: .relaxed) { wasReadByGetter.store(true, ordering: .relaxed) }
        guard !uncommitted.isEmpty, isOwnedByCallingThread, let value = uncommitted[index],
              let decoded = ModelRuntime.decode(value, as: Value.self)
        else { return committed }
        return decoded
    }

    /// Whether Observation may be tracking a property of the object: a generated getter read
    /// one. A change's delivery tells Observation only then.
    var mayBeObserved: Bool {
        wasReadByGetter.load(ordering: .relaxed)
    }

    /// Where the object stands, for a set of column `index`, and while it is managed the
    /// values that set compares with, all in one hold of the lock: the calling thread's
    /// uncommitted value, if its transaction set one, and `stored()` (the generated `_$value`,
    /// which takes the lock again).
    func forSet(column index: Int, stored: () -> SQLiteValue) -> SetTarget {
        lock.withLock {
            switch storedLink {
            case .unmanaged: return .unmanaged
            case .deleted(let host): return .deleted(host)
            case .managed(let host, let rowID):
                let seen = SeenValue(uncommitted: isOwnedByCallingThread ? uncommitted[index] : nil, stored: stored())
                return .managed(host, rowID: rowID, seen: seen)
            }
        }
    }

    /// ``Link``, with what a set of a managed object compares with.
    enum SetTarget {
        case unmanaged
        case managed(any ModelHost, rowID: Int64, seen: SeenValue)
        case deleted(any ModelHost)
    }

    /// A column's value as a thread sees it: its transaction's uncommitted value, if any, over
    /// the stored one.
    struct SeenValue {
        let uncommitted: SQLiteValue?
        let stored: SQLiteValue
    }

    /// Records (or, with `nil`, forgets) the open transaction's value of column `index`; called
    /// on the thread running the transaction.
    func setUncommitted(column index: Int, to value: SQLiteValue?) {
        lock.withLock {
            uncommitted[index] = value
            uncommittedOwner = uncommitted.isEmpty ? nil : pthread_self()
        }
    }

    /// Forgets every uncommitted value (the transaction ended).
    func clearUncommitted() {
        lock.withLock {
            uncommitted = [:]
            uncommittedOwner = nil
        }
    }

    private var isOwnedByCallingThread: Bool {
        guard let owner = uncommittedOwner else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    var link: Link {
        get { lock.withLock { storedLink } }
        set { lock.withLock { storedLink = newValue } }
    }

    var rowID: Int64? {
        if case .managed(_, let rowID) = link { return rowID }
        return nil
    }

    /// The host, while managed or deleted.
    var host: (any ModelHost)? {
        switch link {
        case .managed(let host, _), .deleted(let host): return host
        case .unmanaged: return nil
        }
    }

    /// The subject of column `index`'s signal, made by `make` on first use. It runs under the
    /// lock that guards storage, so no change can slip between reading the current value and
    /// storing the subject. Called by ``PersistentModel/signal(for:)``, which is inlinable so
    /// that the delivery path is compiled for the property's type (unspecialized generic code
    /// would look type metadata up for every subscriber it delivers to).
    public func _columnSubject<Subject: AnyObject>(
        _ index: Int,
        make: () -> (subject: Subject, send: (SQLiteValue) -> Void, complete: () -> Void)
    ) -> Subject {
        lock.withLock { subject(index, in: &signals, make: make) }
    }

    /// The untyped subject of column `index`, made by `make` on first use (see
    /// ``_columnSubject(_:make:)``).
    func valueSubject<Subject: AnyObject>(
        _ index: Int,
        make: () -> (subject: Subject, send: (SQLiteValue) -> Void, complete: () -> Void)
    ) -> Subject {
        lock.withLock { subject(index, in: &valueSignals, make: make) }
    }

    /// The subject at `index` of `list`, made by `make` and kept there on first use. Call
    /// holding the lock.
    private func subject<Subject: AnyObject>(
        _ index: Int,
        in list: inout [ColumnSignal?],
        make: () -> (subject: Subject, send: (SQLiteValue) -> Void, complete: () -> Void)
    ) -> Subject {
        if index < list.count, let existing = list[index]?.broadcaster as? Subject { return existing }
        let made = make()
        if index >= list.count { list += repeatElement(nil, count: index + 1 - list.count) }
        list[index] = ColumnSignal(broadcaster: made.subject, send: made.send, complete: made.complete)
        if case .deleted = storedLink { made.complete() }
        return made.subject
    }

    /// Sends a committed value to the column's subscribers.
    func emit(column index: Int, value: SQLiteValue) {
        let (typed, untyped) = lock.withLock {
            (index < signals.count ? signals[index] : nil, index < valueSignals.count ? valueSignals[index] : nil)
        }
        typed?.send(value)
        untyped?.send(value)
    }

    /// What relationship `property` resolved last.
    func relatedLink(_ property: String) -> AnyObject? {
        lock.withLock { related.first { $0.property == property }?.link }
    }

    /// Keeps what relationship `property` resolved.
    func setRelatedLink(_ property: String, _ link: AnyObject) {
        lock.withLock {
            if let index = related.firstIndex(where: { $0.property == property }) {
                related[index].link = link
            } else {
                related.append((property, link))
            }
        }
    }

    /// Completes every signal and lets go of the related objects (row deleted or store
    /// closed): the links of a graph the app walked are released here.
    func completeAll() {
        let (all, released) = lock.withLock { () -> ([ColumnSignal], [(property: String, link: AnyObject)]) in
            defer { related = [] }
            return ((signals + valueSignals).compactMap { $0 }, related)
        }
        all.forEach { $0.complete() }
        withExtendedLifetime(released) {}
    }
}
